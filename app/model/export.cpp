#include "model/export.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <fstream>

#include "core/family.h"
#include "core/scenario.h"
#include "model/i18n.h"
#include "model/tree_model.h"

namespace redlab::model {

std::optional<ExportFormat> export_format_of(const std::string& path, std::string* why) {
  const std::size_t dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "png") return ExportFormat::png;
  if (ext == "csv") return ExportFormat::csv;
  if (ext == "gif") return ExportFormat::gif;
  if (why)
    *why = "'" + path +
           "' does not end in .png, .csv or .gif (the format follows the extension: .png a picture, "
           ".csv the per-step table, .gif the playback)";
  return std::nullopt;
}

const StepMetric kStepMetrics[] = {
    {"active_threads", &StepStats::active_threads},
    {"active_warps", &StepStats::active_warps},
    {"divergent_warps", &StepStats::divergent_warps},
    {"smem_load_requests", &StepStats::smem_load_requests},
    {"smem_load_wavefronts", &StepStats::smem_load_wavefronts},
    {"smem_load_ideal", &StepStats::smem_load_ideal},
    {"smem_store_requests", &StepStats::smem_store_requests},
    {"smem_store_wavefronts", &StepStats::smem_store_wavefronts},
    {"smem_store_ideal", &StepStats::smem_store_ideal},
    {"gmem_load_requests", &StepStats::gmem_load_requests},
    {"gmem_load_sectors", &StepStats::gmem_load_sectors},
    {"gmem_store_requests", &StepStats::gmem_store_requests},
    {"gmem_store_sectors", &StepStats::gmem_store_sectors},
    {"smem_atomic_requests", &StepStats::smem_atomic_requests},
    {"smem_atomic_wavefronts", &StepStats::smem_atomic_wavefronts},
    {"gmem_atomic_requests", &StepStats::gmem_atomic_requests},
    {"gmem_atomic_sectors", &StepStats::gmem_atomic_sectors},
    {"dsmem_load_requests", &StepStats::dsmem_load_requests},
    {"dsmem_load_bytes", &StepStats::dsmem_load_bytes},
    {"dsmem_store_requests", &StepStats::dsmem_store_requests},
    {"dsmem_store_bytes", &StepStats::dsmem_store_bytes},
};
const int kNumStepMetrics = int(sizeof kStepMetrics / sizeof kStepMetrics[0]);

namespace {
// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + '"';
}

void rows(std::ostream& o, const Trace& t, const char* side) {
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    o << side << ',' << csv_field(t.scenario.kernel) << ',' << t.scenario.n << ',' << t.scenario.block << ',' << s
      << ',' << csv_field(step_name(t, unsigned(s)));
    for (int m = 0; m < kNumStepMetrics; ++m) o << ',' << t.steps[s].stats.*kStepMetrics[m].field;
    o << ',';
    if (t.steps[s].stats.cycles) o << std::llround(*t.steps[s].stats.cycles);
    o << '\n';
  }
}
}  // namespace

namespace {
constexpr const char* kCsvHeaderStart = "scenario,kernel,n,block,step,name";
}

bool has_export_mark(const std::string& head, ExportFormat f) {
  if (f == ExportFormat::csv) return head.rfind(kCsvHeaderStart, 0) == 0;
  if (f == ExportFormat::gif)  // GIF87a/GIF89a, and a comment extension (0x21 0xFE) holding the mark
    return head.rfind("GIF8", 0) == 0 && head.find(std::string("\x21\xFE\x06") + kExportMark) != std::string::npos;
  // PNG: the signature, then chunks (length, type, data, CRC) up to the image data; a tEXt chunk with the mark.
  if (head.rfind("\x89PNG\r\n\x1a\n", 0) != 0) return false;
  const std::string text = std::string("Software") + '\0' + kExportMark;
  for (std::size_t at = 8; at + 8 <= head.size();) {
    const auto byte = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(head[i])); };
    const std::uint32_t len = byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 | byte(at + 3);
    const std::string type = head.substr(at + 4, 4);
    if (type == "IDAT" || type == "IEND") return false;
    if (type == "tEXt" && head.compare(at + 8, text.size(), text) == 0) return true;
    if (len > head.size()) return false;
    at += 12 + std::size_t(len);
  }
  return false;
}

std::string picture_source(const Trace* a, bool b_shown, const Trace* b) {
  auto one = [](const Trace* t) {
    return t ? std::string("backend: ") + to_string(t->backend) + " | device: " + t->device : std::string("no trace");
  };
  std::string s = b_shown ? "A: " + one(a) + "; B: " + one(b) : one(a);
  for (char& c : s)  // (a PNG's text is Latin-1; a trace file's device name is anybody's text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  if (s.size() > 300) s.resize(300);
  return s;
}

bool export_may_write(const std::string& path, ExportFormat f, std::string* why) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;  // nothing there, or a link to nothing yet
  const char* kind = f == ExportFormat::csv ? "CSV" : f == ExportFormat::gif ? "GIF" : "PNG";
  std::string head;
  if (S_ISREG(st.st_mode)) {
    std::ifstream in(path, std::ios::binary);
    head.resize(4096);
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (has_export_mark(head, f)) return true;
  }
  if (why)
    *why =
        path + " exists and is not a " + kind + " redlab exported; add --force to replace it, or choose another name";
  return false;
}

void write_steps_csv(std::ostream& o, const Trace& a, const Trace* b) {
  // The figures' columns in words, in the UI's language, as the per-step table names them ("active threads"; the
  // JSON keys are `stats --json`'s); the first columns stay as they are, the mark of a CSV redlab wrote.
  o << kCsvHeaderStart;
  for (int m = 0; m < kNumStepMetrics; ++m)
    o << ',' << csv_field(tr((std::string("m.") + kStepMetrics[m].key).c_str()));
  o << ',' << csv_field(tr("m.cycles")) << '\n';
  rows(o, a, "A");
  if (b) rows(o, *b, "B");
}

std::vector<GifFrame> gif_schedule(int last_step, float speed, float hold, int fps) {
  speed = std::clamp(speed, 0.1f, 20.0f);
  hold = std::clamp(std::isfinite(hold) ? hold : kDefaultHold, 0.2f, 10.0f);
  fps = std::clamp(fps, 2, 50);
  const double move_s = 1.0 / std::max(1.5, 1.5 * double(speed));  // as ViewState::tick animates
  const int frame_cs = std::max(2, int(std::lround(100.0 / fps)));
  const int hold_cs = std::max(frame_cs, int(std::lround(100.0 * hold)));
  // The move's frames: at least its start and end; then its last frame (the finished step) held.
  const int move_frames = std::max(2, int(std::ceil(move_s * fps)) + 1);
  std::vector<GifFrame> out;
  out.push_back({0, 1.0f, hold_cs});
  for (int s = 1; s <= last_step; ++s)
    for (int k = 0; k < move_frames; ++k) {
      const bool last = k + 1 == move_frames;
      out.push_back({s, float(k) / float(move_frames - 1), last ? hold_cs : frame_cs});
    }
  return out;
}

std::vector<std::string> export_caption(const Trace& t, int step) {
  const Scenario& s = t.scenario;
  std::vector<std::string> lines;
  const std::string shape =
      family_of(s).takes_matrix
          ? trf("caption.matrix", {std::to_string(s.rows), std::to_string(s.cols), std::to_string(s.block_rows)}) +
                "  ·  " + to_string(s.type)
          : trf("caption.reduction", {std::to_string(s.n), std::to_string(s.block)}) + "  ·  " + to_string(s.type) +
                " " + to_string(s.op);
  lines.push_back(s.kernel + "  ·  " + shape);
  if (step >= 0 && std::size_t(step) < t.steps.size()) {
    const StepStats& x = t.steps[std::size_t(step)].stats;
    lines.push_back(
        trf("caption.step", {std::to_string(step + 1), std::to_string(t.steps.size()), step_name(t, unsigned(step))}) +
        "  ·  " +
        trf("ctl.figures",
            {std::to_string(x.active_threads), std::to_string(x.active_warps), std::to_string(x.divergent_warps),
             std::to_string(x.smem_load_wavefronts + x.smem_store_wavefronts),
             std::to_string(x.smem_load_ideal + x.smem_store_ideal),
             std::to_string(x.gmem_load_sectors + x.gmem_store_sectors)}));
  }
  return lines;
}

}  // namespace redlab::model
