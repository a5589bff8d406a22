// `redlab new-kernel FILE --from ID`: a catalog kernel (or a file of the gallery of mistakes) as a file of the
// student's own, renamed after the file (core/kernel_file.h).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "core/catalog.h"
#include "core/file_write.h"
#include "core/gallery.h"
#include "core/kernel_file.h"
#include "core/kernel_source.h"
#include "core/printable.h"

namespace redlab::cli {
namespace {

int cmd_new_kernel(const std::string& file, const std::string& from, const std::string& lang, bool dynamic_smem,
                   bool force) {
  const auto read_text = [](const std::string& path) -> std::optional<std::string> {
    std::ifstream f(path);
    if (path.empty() || !f) return std::nullopt;
    std::ostringstream all;
    all << f.rdbuf();
    return all.str();
  };
  // gallery/NAME: a file of the gallery of mistakes, copied under the new file's name.
  const std::string gallery_prefix = "gallery/";
  const bool from_gallery = from.rfind(gallery_prefix, 0) == 0;
  std::string id, text, origin;
  try {
    id = kernel_id_from_path(file);
    if (from_gallery) {
      // A gallery file is copied as it is: its mistake is in the kernel it has.
      if (dynamic_smem)
        throw std::invalid_argument(
            "--dynamic-smem: a file of the gallery of mistakes is copied as it is; start "
            "from a catalog kernel (--from interleaved --dynamic-smem)");
      const Gallery gallery = load_gallery();
      if (!gallery.error.empty()) throw std::runtime_error(gallery.error);
      const std::string name = from.substr(gallery_prefix.size());
      const GalleryEntry* g = find_gallery_entry(gallery, name);
      if (!g) {
        std::string names;
        for (const GalleryEntry& e : gallery.entries)
          names += (names.empty() ? "" : ", ") + std::filesystem::path(e.file).stem().string();
        throw std::invalid_argument("--from: '" + from + "' is not in the gallery of mistakes; it has " + names +
                                    " (redlab list --gallery)");
      }
      const std::optional<std::string> source = read_text(g->source);
      if (!source) throw std::invalid_argument("cannot read " + g->source);
      const std::string title = text_in(g->title, lang),
                        lead = lang == "zh_CN" ? "错误示例库" : "the gallery of mistakes";
      text = "// " + id + ": " +
             (lang == "zh_CN" ? "你的核函数，复制自" + lead + "中的 " + g->id + "：" + title
                              : "your kernel, a copy of " + g->id + " from " + lead + ": " + title) +
             "\n" + rename_kernel_file(*source, g->id, id);
      const std::map<std::string, std::string> gives = {{"deadlock", "a deadlock"},
                                                        {"wrong_result", "a wrong result"},
                                                        {"race", "a race"},
                                                        {"out_of_bounds", "an out-of-bounds index"}};
      origin = "the gallery's " + g->id + ", which gives " + gives.at(g->expect);
    } else {
      const KernelRecord* k = find_kernel(from);
      if (!k) {
        print_message(stderr,
                      "redlab: --from: '%s' is not a kernel redlab has; `redlab list` shows them (or "
                      "gallery/NAME: `redlab list --gallery`)\n",
                      from.c_str());
        return 2;
      }
      text = make_kernel_file(*k, id, {.lang = lang, .dynamic_smem = dynamic_smem}, read_catalog_source);
      origin = "the catalog's " + from;
    }
  } catch (const std::invalid_argument& e) {
    print_message(stderr, "redlab: new-kernel: %s\n", e.what());
    return 2;
  } catch (const std::runtime_error& e) {  // the gallery's index
    print_message(stderr, "redlab: new-kernel: %s\n", e.what());
    return 2;
  }
  std::error_code ec;
  if (!force && std::filesystem::exists(file, ec)) {
    print_message(stderr, "redlab: new-kernel: '%s' exists; use --force to replace it\n", file.c_str());
    return 2;
  }
  write_file_atomically(file, text);
  const auto lines = std::count(text.begin(), text.end(), '\n');
  print_message(stdout, "wrote %s: the kernel %s, from %s (%ld lines: %s)\n", file.c_str(), id.c_str(), origin.c_str(),
                long(lines),
                from_gallery
                    ? "the mistake explained and the probe's calls described at the top, the kernel, its record"
                    : "the kernel, each probe call explained before its first use, its record last");
  return 0;
}

class NewKernelCommand : public Command {
  std::string file_, from_, lang_ = "en";
  bool force_ = false, dynamic_smem_ = false;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* nk = parent.add_subcommand(
        "new-kernel",
        "write a catalog kernel as a file of your own: its source, each probe call explained before its "
        "first use, and its record last, renamed after the file");
    nk->add_option("file", file_, "the file to write, as mine.cu (its name is the kernel's name)")->required();
    nk->add_option("--from", from_,
                   "the catalog kernel to start from (redlab list), or gallery/NAME: a file of the gallery of "
                   "mistakes (redlab list --gallery)")
        ->required();
    nk->add_option("--lang", lang_, "the comments' language: en or zh_CN")->check(language());
    nk->add_flag("--dynamic-smem", dynamic_smem_,
                 "interleaved: keep its variant with the shared array sized at launch (extern __shared__), "
                 "which stats --source F --dynamic-smem runs");
    nk->add_flag("--force", force_, "replace an existing file");
    return nk;
  }
  int run(const Invocation&) override { return cmd_new_kernel(file_, from_, lang_, dynamic_smem_, force_); }
};

const CommandRegistration new_kernel_command{Order::new_kernel,
                                             [] { return std::unique_ptr<Command>(new NewKernelCommand); }};

}  // namespace
}  // namespace redlab::cli
