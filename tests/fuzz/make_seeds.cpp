// The fuzz target's seed corpus, made by the build it tests so that it always follows the trace format:
// traces recorded by the CPU emulator (small, but with every kind of step, access and element type: reductions
// with two focus blocks, shuffles, a vector load, float64, a padded transpose tile), each as a whole file and as
// a bare body, and the hostile bodies of tests/hostile_traces.h (bare, and as files with a right header and
// checksum, for the GUI monkey test to open).
//   redlab_fuzz_seeds DIR                 traces
//   redlab_fuzz_seeds DIR gallery         gallery indexes: redlab's own and hostile ones
//   redlab_fuzz_seeds DIR lesson          lesson files: redlab's own and hostile ones
//   redlab_fuzz_seeds DIR progress        lessons' progress files: as the window writes them, and hostile ones
//   redlab_fuzz_seeds DIR settings        the window's settings: as it writes them, and hostile ones
//   redlab_fuzz_seeds DIR hw TRACE        recorded hardware counts (as `stats --hw --json` writes them) of the
//                                         trace written to TRACE, which the fuzz target compares them with
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/file_write.h"
#include "core/hw_counts.h"
#include "core/resources.h"
#include "core/trace.h"
#include "exec/executor.h"
#include "hostile_traces.h"
#include "hw_mirror.h"
#include "model/lesson_progress.h"
#include "model/settings.h"

namespace {

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

// `before`, then JSON nested `depth` arrays deep around `inner`, then `after` (nlohmann's copies and dumps recurse
// once per level: a 120 KB file of them ended the window before the readers bounded the depth).
std::string nested(const char* before, std::size_t depth, const char* after, const char* inner = "") {
  std::string s = before;
  s.append(depth, '[').append(inner).append(depth, ']').append(after);
  return s;
}

// Gallery indexes: redlab's own, and the kinds of hostile entry the reader must refuse.
int gallery_seeds(const std::filesystem::path& dir) {
  std::string own;
  if (!redlab::read_text_file(redlab::find_resource("assets/gallery/gallery.json"), &own, nullptr))
    throw std::runtime_error("assets/gallery/gallery.json was not found");
  write(dir / "gallery.json", own);
  const char* hostile[] = {
      R"({"entries": [{"file": "/etc/passwd", "id": "x", "expect": "correct", "title": "t"}]})",
      R"({"entries": [{"file": "../../x.cu", "id": "x", "expect": "correct", "title": {"en": "t", "zh_CN": "t"}}]})",
      R"({"entries": [{"file": "a.cu", "id": "x[31m", "expect": "correct", "title": "]0;title"}]})",
      R"({"entries": [{"file": "a.cu", "id": "x", "expect": "correct", "title": "t", "scenario": {"n": "4096; rm -rf ~", "block": 1e308, "focus": [1, -1, 2.5]}}]})",
      R"({"entries": [{"file": 7, "id": [], "expect": {}, "title": null}, 1, "x", null]})",
      R"({"entries": {"file": "a.cu"}})",
  };
  int n = 0;
  for (const char* h : hostile) write(dir / ("hostile-" + std::to_string(n++) + ".json"), h);
  write(dir / ("hostile-" + std::to_string(n++) + ".json"), nested("{\"entries\": ", 60000, "}"));
  std::printf("redlab's gallery index and %d hostile ones in %s\n", n, dir.c_str());
  return 0;
}

// Lesson files: redlab's own (the shipped lessons, with their stand-in-parser words as they are: the fuzzer's own
// mutations reach the rest) and the kinds of hostile file the reader must refuse.
int lesson_seeds(const std::filesystem::path& dir) {
  int n = 0;
  const std::string shipped = redlab::find_resource("assets/lessons");
  if (shipped.empty()) throw std::runtime_error("assets/lessons was not found");
  for (const auto& e : std::filesystem::directory_iterator(shipped)) {
    std::string text;
    if (e.path().extension() == ".lesson" && redlab::read_text_file(e.path().string(), &text, nullptr))
      write(dir / e.path().filename(), text), ++n;
  }
  const char* small =
      "lesson: mine\nnote: 001\ntitle.en: Mine\ntitle.zh: 我的\nbeat\na: --kernel interleaved --n 256\n"
      "step: 1\nlook: banks\nwarp: 3\nbank: 4\nline: 28\nsay.en: Look.\nsay.zh: 看。\nask: result\nask.en: ?\n"
      "ask.zh: ？\nexplain.en: .\nexplain.zh: 。\nbeat\nb: --kernel neighbored_strided\nask: more divergent_warps\n"
      "ask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\nsay.en: B.\nsay.zh: 乙。\n"
      "exercise mine\nfrom: interleaved\na: --n 512\ntitle.en: T\ntitle.zh: 题\ntask.en: T\ntask.zh: 题\n"
      "check: correct\ncheck: sectors_per_request 4\n";
  const char* hostile[] = {
      "lesson: mine\nbeat\na: --kernel interleaved\nsay.en: \x1b]0;title\x07\nsay.zh: x\n",
      "lesson: mine\ntitle.en: a\ntitle.zh: b\nbeat\nbeat\nbeat\n",
      "lesson: ../../etc\n",
      "lesson: mine\ntitle.en: a\ntitle.zh: b\nexercise x\nfrom: cub_device\n",
      "lesson: mine\ntitle.en: a\ntitle.zh: b\nbeat\na: --kernel interleaved --n 99999999999999999999\nsay.en: "
      "a\nsay.zh: b\n",
  };
  write(dir / "small.lesson", small), ++n;
  int h = 0;
  for (const char* x : hostile) write(dir / ("hostile-" + std::to_string(h++) + ".lesson"), x);
  std::printf("%d lessons and %d hostile ones in %s\n", n, h, dir.c_str());
  return 0;
}

// Hardware counts as the model would have them for the trace of interleaved, written as `stats --hw --json`
// writes a collection; the trace itself to `trace_path`.
int hw_seeds(const std::filesystem::path& dir, const std::string& trace_path) {
  using namespace redlab;
  Scenario sc;
  sc.kernel = "interleaved";
  sc.n = 512;
  sc.block = 128;
  sc.backend = BackendChoice::cpu;
  resolve_shape(sc);
  const Trace t = make_cpu_executor()->run(sc);
  save_trace(t, trace_path);
  HwCounts hw = testdata::mirror_of(t);
  hw.device = "NVIDIA H100 80GB HBM3 (sm_90)";
  hw.missing = {"smsp__sass_thread_inst_executed_pred_on"};
  nlohmann::json file = {{"kernel", sc.kernel},
                         {"n", sc.n},
                         {"block", sc.block},
                         {"type", to_string(sc.type)},
                         {"hw", {{"collection", hw_counts_to_json(hw)}}}};
  write(dir / "interleaved-hw.json", file.dump(1));
  write(dir / "interleaved-collection.json", hw_counts_to_json(hw).dump());
  nlohmann::json hostile = hw_counts_to_json(hw);
  hostile["device"] = "\x1b]0;pwned\x07\x1b[31mRED";
  hostile["files"][0] = "kernels/\x1b[5m.cuh";
  write(dir / "hostile-text.json", hostile.dump());
  hostile = hw_counts_to_json(hw);
  hostile["instructions"][0][4] = -17;
  write(dir / "hostile-negative.json", hostile.dump());
  // Nested deeper than any reader allows, in the counts and in the text a message would quote.
  write(dir / "hostile-deep.json", nested("{\"kernel\": ", 100000, "}", "\"interleaved\""));
  file["hw"]["collection"]["device"] = "@deep@";
  std::string deep = file.dump();
  deep.replace(deep.find("\"@deep@\""), 8, nested("", 50000, ""));
  write(dir / "hostile-deep-collection.json", deep);
  std::printf("hardware counts of interleaved (n = 512) and 4 hostile ones in %s; the trace in %s\n", dir.c_str(),
              trace_path.c_str());
  return 0;
}

// Lessons' progress for the fuzz target's lesson ("mine", four beats, questions at 1 and 3), as the window writes
// it, and hostile files: beats and answers it cannot have, deep nesting, a crowd of lessons.
int progress_seeds(const std::filesystem::path& dir) {
  using namespace redlab::model;
  LessonProgress p;
  p.beat = 2;
  p.answers = {{1, "32"}, {3, "二十二"}};
  p.revealed = {0, 1, 3};
  const std::string own = progress_text_with("", "mine", p);
  write(dir / "own.json", own);
  write(dir / "two.json", progress_text_with(own, "harris", p));
  const std::string hostile[] = {
      R"({"lessons": {"mine": {"beat": 99999999999, "answers": {"99999999999": "x", "-1": "x", "0": "x", "1": "\u001b]0;x\u0007", "3": "\u202e32"}, "revealed": [-1, 4, 1e300, "1"]}}})",
      R"({"lessons": {"mine": {"beat": "1", "answers": [], "revealed": {}}}})",
      R"({"lessons": {"mine": {"answers": {"1": "三三三三三三三三三三三三三三三三三三三三三三三三三三三三三三"}}}})",
      R"({"lessons": []})",
      nested("{\"lessons\": {\"mine\": ", 60000, "}}"),
      nested("{\"lessons\": {\"mine\": {\"beat\": 1}, \"harris\": ", 60000, "}}"),
      nested("{\"lessons\": {\"other\": ", 60, ", \"mine\": {\"beat\": 1}}}"),
  };
  int n = 0;
  for (const std::string& h : hostile) write(dir / ("hostile-" + std::to_string(n++) + ".json"), h);
  nlohmann::json crowd;
  for (int i = 0; i < 220; ++i) crowd["lessons"][std::to_string(i)] = {{"beat", i}};
  write(dir / ("hostile-" + std::to_string(n++) + ".json"), crowd.dump());
  std::printf("2 progress files as the window writes them and %d hostile ones in %s\n", n, dir.c_str());
  return 0;
}

// The window's settings as it writes them, and hostile ones: values of the wrong type or out of range, names
// redlab does not have, deep nesting.
int settings_seeds(const std::filesystem::path& dir) {
  using namespace redlab::model;
  Settings s;
  s.lang = "zh_CN";
  s.layout = "present";
  s.ui_scale = 2.0f;
  write(dir / "own.json", settings_text(s));
  const std::string hostile[] = {
      R"({"ui_scale": 1e308, "colorblind": 1, "lang": "../../etc/passwd", "layout": "\u001b[31m", "hint_seen": "yes"})",
      R"({"ui_scale": -1e308, "lang": ["zh_CN"], "layout": null})",
      R"([{"ui_scale": 2}])",
      nested("{\"lang\": ", 100000, "}"),
  };
  int n = 0;
  for (const std::string& h : hostile) write(dir / ("hostile-" + std::to_string(n++) + ".json"), h);
  std::printf("the settings as the window writes them and %d hostile ones in %s\n", n, dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace redlab;
  const std::string kind = argc >= 3 ? argv[2] : "";
  if (argc < 2 || (argc == 3 && kind != "gallery" && kind != "lesson" && kind != "progress" && kind != "settings") ||
      (argc == 4 && kind != "hw") || argc > 4) {
    std::fprintf(stderr, "usage: redlab_fuzz_seeds DIR [gallery | lesson | progress | settings | hw TRACE]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  if (kind == "lesson") return lesson_seeds(dir);
  if (kind == "gallery") return gallery_seeds(dir);
  if (kind == "progress") return progress_seeds(dir);
  if (kind == "settings") return settings_seeds(dir);
  if (argc == 4) return hw_seeds(dir, argv[3]);
  struct Seed {
    const char* name;
    const char* kernel;
    unsigned n, block;
    ElemType type;
    bool two_focus_blocks;
  };
  const Seed seeds[] = {
      {"interleaved", "interleaved", 512, 128, ElemType::int32, true},
      {"warp_shuffle", "warp_shuffle", 256, 128, ElemType::int32, true},
      {"vectorized", "vectorized", 4096, 64, ElemType::float32, false},
      {"neighbored_float64", "neighbored_strided", 300, 64, ElemType::float64, true},
      {"transpose_padded", "transpose_padded", 0, 0, ElemType::float32, true},
  };
  const auto executor = make_cpu_executor();
  nlohmann::json first_body;
  for (const Seed& s : seeds) {
    Scenario sc;
    sc.kernel = s.kernel;
    sc.type = s.type;
    sc.backend = BackendChoice::cpu;
    if (s.n) {
      sc.n = s.n;
      sc.block = s.block;
    } else {
      sc.rows = sc.cols = 64;
      sc.block_rows = 8;
    }
    if (s.two_focus_blocks) sc.focus_blocks = {0, 1};
    resolve_shape(sc);
    const std::filesystem::path file = dir / (std::string(s.name) + ".rltrace");
    save_trace(executor->run(sc), file.string());
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string body = bytes.substr(28);  // magic, version, size, checksum
    write(dir / (std::string(s.name) + ".body"), body);
    if (first_body.is_null()) first_body = nlohmann::json::from_cbor(body);
  }
  // A trace that ends at a fault (core/fault.h): interleaved's block 0 up to its third step, a race named there (the
  // faults the loader must refuse are among the hostile bodies).
  {
    const nlohmann::json faulted = testdata::faulted_body(first_body);
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(faulted);
    write(dir / "fault-race.body", std::string(cbor.begin(), cbor.end()));
    write(dir / "fault-race.rltrace", trace_file_with_body(cbor.data(), cbor.size()));
  }
  int hostile = 0;
  for (const auto& h : testdata::hostile_bodies(first_body)) {
    write(dir / ("hostile-" + h.name + ".body"), std::string(h.cbor.begin(), h.cbor.end()));
    write(dir / ("hostile-" + h.name + ".rltrace"), trace_file_with_body(h.cbor.data(), h.cbor.size()));
    ++hostile;
  }
  std::printf("%zu traces and %d hostile ones (file and body each) in %s\n", std::size(seeds), hostile, dir.c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "redlab_fuzz_seeds: %s\n", e.what());
  return 1;
}
