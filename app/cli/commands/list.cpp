// `redlab list`: the kernel catalog (or, with --gallery, the gallery of mistakes), as text, JSON or ids alone.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/catalog.h"
#include "core/gallery.h"
#include "core/printable.h"
#include "core/stats_json.h"

namespace redlab::cli {
namespace {

int cmd_list(bool json, const std::string& find, bool ids) {
  const nlohmann::json found = list_json(find);
  if (found.empty()) {  // a search that finds nothing says so (exit 1, as grep does)
    print_message(stderr,
                  "redlab: list --find: no kernel matches '%s' (its id, title, what it teaches, or a name from "
                  "the notes: reduce0..reduce7, Harris 1..7, PMPP §10.3, 000..004)\n",
                  find.c_str());
    return 1;
  }
  if (ids) {
    for (const auto& k : found) std::cout << k.at("id").get<std::string>() << "\n";
  } else if (json) {
    std::cout << found.dump(2) << "\n";
  } else {
    std::cout << list_text(find);
  }
  return 0;
}

int cmd_list_gallery(bool json) {
  const Gallery gallery = load_gallery();
  if (!gallery.error.empty()) {
    print_message(stderr, "redlab: list --gallery: %s\n", gallery.error.c_str());
    return 2;
  }
  for (const std::string& p : gallery.problems)
    print_message(stderr, "redlab: list --gallery: left out: %s\n", p.c_str());
  if (json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const GalleryEntry& g : gallery.entries) {
      entries.push_back({{"file", g.file},
                         {"id", g.id},
                         {"from", g.from},
                         {"scenario", g.options},
                         {"expect", g.expect},
                         {"title", g.title},
                         {"explanation", g.explanation},
                         {"path", g.source}});
    }
    std::cout << nlohmann::json{{"entries", entries}}.dump(2) << "\n";
    return 0;
  }
  std::cout << "The gallery of mistakes: kernel files that are wrong on purpose, each explained at its top.\n"
               "Run one with the command shown; start from one with `redlab new-kernel mine.cu --from gallery/NAME`.\n";
  for (const GalleryEntry& g : gallery.entries) {
    std::string run = "redlab stats --source " + shell_quoted(g.source);
    for (const std::string& a : scenario_arguments(g)) run += " " + shell_quoted(a);
    std::cout << "\n  " << std::filesystem::path(g.file).stem().string() << "  (" << g.expect << ", from " << g.from
              << ")\n      " << text_in(g.title, "en") << "\n      " << run << "\n";
  }
  return 0;
}

class ListCommand : public Command {
  bool json_ = false, gallery_ = false, ids_ = false;
  std::string find_;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* list = parent.add_subcommand("list", "the kernel catalog");
    list->add_flag("--json", json_, "JSON output");
    list->add_flag("--ids", ids_, "only the kernels' ids, one per line (for scripts and the shell's completion)");
    list->add_option(
        "--find", find_,
        "only the kernels whose id, title, lesson or course-note names hold this text (reduce1, \"Harris 3\", PMPP)");
    list->add_flag(
        "--gallery", gallery_,
        "the gallery of mistakes instead: kernel files that are wrong on purpose, each explained (assets/gallery)");
    return list;
  }
  int run(const Invocation&) override { return gallery_ ? cmd_list_gallery(json_) : cmd_list(json_, find_, ids_); }
};

const CommandRegistration list_command{Order::list, [] { return std::unique_ptr<Command>(new ListCommand); }};

}  // namespace
}  // namespace redlab::cli
