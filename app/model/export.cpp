#include "export.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "tree_model.h"

namespace redlab::model {

std::optional<ExportFormat> export_format_of(const std::string& path, std::string* why) {
  const std::size_t dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "png") return ExportFormat::png;
  if (ext == "csv") return ExportFormat::csv;
  if (ext == "gif") return ExportFormat::gif;
  if (why)
    *why = "'" + path + "' does not end in .png, .csv or .gif (the format follows the extension: .png a picture, "
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

void write_steps_csv(std::ostream& o, const Trace& a, const Trace* b) {
  o << "scenario,kernel,n,block,step,name";
  for (int m = 0; m < kNumStepMetrics; ++m) o << ',' << kStepMetrics[m].key;
  o << ",cycles\n";
  rows(o, a, "A");
  if (b) rows(o, *b, "B");
}

std::vector<GifFrame> gif_schedule(int last_step, float speed, int fps) {
  speed = std::clamp(speed, 0.1f, 20.0f);
  fps = std::clamp(fps, 2, 50);
  const int step_cs = std::max(2, int(std::lround(100.0 / speed)));
  const double move_s = 1.0 / std::max(1.5, 1.5 * double(speed));   // as ViewState::tick animates
  const int frame_cs = std::max(2, int(std::lround(100.0 / fps)));
  // The move's frames: at least its start and end, no more than the step's time allows.
  const int move_frames = std::clamp(int(std::ceil(move_s * fps)) + 1, 2, std::max(2, step_cs / frame_cs));
  std::vector<GifFrame> out;
  out.push_back({0, 1.0f, step_cs});
  for (int s = 1; s <= last_step; ++s) {
    int used = 0;
    for (int k = 0; k < move_frames; ++k) {
      const bool last = k + 1 == move_frames;
      const int delay = last ? std::max(frame_cs, step_cs - used) : frame_cs;
      out.push_back({s, float(k) / float(move_frames - 1), delay});
      used += delay;
    }
  }
  return out;
}

}  // namespace redlab::model
