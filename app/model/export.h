// What File > Export and `redlab gui --export FILE` write, without drawing: the format a path asks for, the
// per-step table as CSV, and the frames of a GIF of the playback (which step, how far into its animation,
// how long it stays). The pixels themselves come from the window (export_files.h, capture.h).
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/trace.h"

namespace redlab::model {

enum class ExportFormat { png, csv, gif };
// The format named by the path's extension (case-insensitive), or nothing; `why` then says what is accepted.
std::optional<ExportFormat> export_format_of(const std::string& path, std::string* why = nullptr);

// An export replaces only a file redlab exported in the same format: a PNG with the text chunk "Software" =
// "redlab" (kExportMark), a GIF with the comment "redlab", a CSV that begins with the table's header. Whether
// `path` may be written without --force: nothing there (a symlink counts as what it names), or such a file;
// otherwise false with `why` a sentence naming the file.
inline constexpr const char* kExportMark = "redlab";
bool export_may_write(const std::string& path, ExportFormat, std::string* why);
// Whether the first bytes of a file carry that format's mark.
bool has_export_mark(const std::string& head, ExportFormat);

// What a picture of the window was drawn from, for its PNG's "Source" text (the PNG keyword for the device that
// made an image), in the status bar's words in English: "backend: cuda | device: NVIDIA H200", with "A: ...;
// B: ..." when B is shown beside A, "no trace" for a side without one. Printable ASCII, at most 300 characters.
std::string picture_source(const Trace* a, bool b_shown = false, const Trace* b = nullptr);

// One figure of the per-step table (the Per-step figures window and the CSV share the list).
struct StepMetric {
  const char* key;  // a StepStats field's name: the JSON schema's key, the UI text "m.<key>", the help "def.<key>"
  std::uint64_t StepStats::*field;
};
extern const StepMetric kStepMetrics[];
extern const int kNumStepMetrics;

// The per-step table of one trace, or of A and B (a `scenario` column then says which): one row per step,
// columns scenario, kernel, n, block, step, name, every StepMetric, cycles (empty where not measured).
void write_steps_csv(std::ostream&, const Trace& a, const Trace* b = nullptr);

// One frame of the playback GIF: the session shows `step`, `anim` (0..1) into its move from step - 1, for
// `delay_cs` hundredths of a second.
struct GifFrame {
  int step = 0;
  float anim = 1.0f;
  int delay_cs = 0;
};
// Every step from 0 to `last_step`: the move into each step at `fps` frames per second as the window animates it at
// `speed` steps per second (ViewState::tick: 1 / max(1.5, 1.5 x speed) seconds), then the finished step held
// `hold` seconds (0.2 to 10), long enough to read on a slide. Step 0 is one frame; every other step at least two
// (the move's start and end).
constexpr float kDefaultHold = 1.5f;
std::vector<GifFrame> gif_schedule(int last_step, float speed, float hold = kDefaultHold, int fps = 25);

// The caption of a slide-ready export (a view's PNG or GIF): what ran, and the step shown with its key figures, in
// the UI's language: "neighbored_strided  ·  n 256  ·  block 256  ·  int32 sum" and "step 5 / 10  tree: stride 8  ·
// threads 16 | warps 1, divergent 1 | shared wavefronts 24 (ideal 3) | global sectors 0".
std::vector<std::string> export_caption(const Trace&, int step);

// What to export and how; the window's loop carries it out (run_gui.cpp), the menu and the CLI fill it in.
struct ExportRequest {
  std::string path;
  ExportFormat format = ExportFormat::png;
  // A view's id ("tree", "compare", ...): PNG of that view, GIF of it; "" : PNG of the whole window, GIF of the centre
  // view (compare, tile or tree).
  std::string view;
  bool transparent = false;  // PNG: the background transparent
  float speed = 1.5f;  // GIF: steps per second of the moves between steps
  float hold = kDefaultHold;  // GIF: seconds each finished step stays
  bool caption = true;  // a view's PNG or GIF: the caption above it (export_caption)
  int width = 0;  // PNG/GIF: scaled to this width (0: as drawn)
  bool force = false;  // replace a file that is not one of redlab's exports (--force)
};

}  // namespace redlab::model
