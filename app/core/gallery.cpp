#include "core/gallery.h"
#include "core/json_read.h"
#include "core/printable.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "core/json_read.h"
#include "core/file_write.h"
#include "core/resources.h"
#include "core/user_dirs.h"

namespace redlab {

namespace fs = std::filesystem;

namespace {

using nlohmann::json;

std::string accepted_expectations() {
  std::string s;
  for (const char* e : kGalleryExpectations) s += (s.empty() ? "" : ", ") + std::string(e);
  return s;
}

// A number or a size as --n takes it ("2^20+3"): false when it is neither.
bool size_value(const json& v, std::uint64_t* out) {
  if (v.is_number_unsigned()) {
    *out = v.get<std::uint64_t>();
    return true;
  }
  return v.is_string() && parse_size(v.get<std::string>(), *out);
}

// The entry's scenario over the scenario's defaults; "" or what was wrong and what is accepted.
std::string read_scenario(const json& j, Scenario& s) {
  if (!j.is_object()) return "\"scenario\" is not an object of options ({\"n\": 4096, \"block\": 256, ...})";
  static const char* kKeys =
      "n, block, type, op, input, seed, backend, finish, coarse, rows, cols, block_rows, cluster, focus";
  for (const auto& item : j.items()) {
    const std::string key = item.key();  // named, not bound: clang before 16 lets no lambda capture a binding
    const json& v = item.value();
    std::string why;
    std::uint64_t u = 0;
    auto text = [&]() { return v.is_string() ? v.get<std::string>() : v.dump(); };
    auto number = [&](std::uint64_t max) {
      if (size_value(v, &u) && u <= max) return true;
      why = "scenario \"" + key + "\": " + json_excerpt(v) + " is not a number from 0 to " + std::to_string(max);
      return false;
    };
    if (key == "n") {
      if (number(kMaxN)) s.n = u;
    } else if (key == "block") {
      if (number(1024)) s.block = unsigned(u);
    } else if (key == "seed") {
      if (number(~std::uint64_t(0))) s.seed = u;
    } else if (key == "coarse") {
      if (number(1024)) s.coarse = unsigned(u);
    } else if (key == "rows" || key == "cols") {
      if (number(kMaxSide)) (key == "rows" ? s.rows : s.cols) = std::uint32_t(u);
    } else if (key == "block_rows") {
      if (number(32)) s.block_rows = unsigned(u);
    } else if (key == "cluster") {
      if (number(16)) s.cluster = unsigned(u);
    } else if (key == "type") {
      if (auto t = parse_type(text(), &why)) s.type = *t;
    } else if (key == "op") {
      if (auto o = parse_op(text(), &why)) s.op = *o;
    } else if (key == "input") {
      if (auto i = parse_input(text(), &why)) s.input = *i;
    } else if (key == "backend") {
      if (auto b = parse_backend(text(), &why)) s.backend = *b;
    } else if (key == "finish") {
      if (auto f = parse_finish(text(), &why)) s.finish = *f;
    } else if (key == "focus") {
      s.focus_blocks.clear();
      for (const json& b : v.is_array() ? v : json::array({v})) {
        if (!b.is_number_unsigned()) {
          why = "scenario \"focus\": " + json_excerpt(v) + " is not a list of block numbers";
          break;
        }
        s.focus_blocks.push_back(b.get<std::uint32_t>());
      }
    } else {
      why = "scenario \"" + key + "\" is not an option the window reads; accepted: " + kKeys;
    }
    if (!why.empty()) return why;
  }
  return {};
}

std::map<std::string, std::string> texts(const json& j) {
  std::map<std::string, std::string> m;
  if (j.is_string()) m["en"] = printable(j.get<std::string>(), true);
  if (j.is_object())
    for (const auto& [lang, v] : j.items())
      if (v.is_string()) m[printable(lang)] = printable(v.get<std::string>(), true);
  return m;
}

}  // namespace

Gallery read_gallery(const std::string& index_path) {
  std::string text;
  if (const std::string why = read_regular_file(index_path, kMaxGalleryIndexBytes, &text); !why.empty()) {
    Gallery g;
    g.path = index_path;
    g.error = why;
    return g;
  }
  return parse_gallery(text, index_path);
}

Gallery parse_gallery(std::string_view text, const std::string& index_path) {
  Gallery g;
  g.path = index_path;
  if (text.size() > kMaxGalleryIndexBytes) {
    g.error = index_path + " is larger than an index can be (" + std::to_string(kMaxGalleryIndexBytes >> 20) + " MB)";
    return g;
  }
  json j;
  try {
    j = parse_json(text);
  } catch (const std::exception& e) {
    g.error = printable(index_path) + " is not an index: " + e.what();
    return g;
  }
  if (!j.is_object() || !j.contains("entries") || !j["entries"].is_array()) {
    g.error = index_path + ": expected {\"entries\": [...]}";
    return g;
  }
  const fs::path folder = fs::path(index_path).parent_path();
  int number = 0;
  for (const json& e : j["entries"]) {
    ++number;
    GalleryEntry entry;
    std::string why;
    auto field = [&](const char* key, std::string* out) {
      if (!why.empty()) return;
      if (!e.is_object() || !e.contains(key) || !e[key].is_string() || e[key].get<std::string>().empty())
        why = std::string("\"") + key + "\" is missing or not a text";
      else
        *out = printable(e[key].get<std::string>());
    };
    field("file", &entry.file);
    field("id", &entry.id);
    field("expect", &entry.expect);
    if (why.empty() && e.contains("from") && e["from"].is_string())
      entry.from = printable(e["from"].get<std::string>());
    // The file is one in the gallery's folder, by its name: nothing outside it is copied.
    if (why.empty() && (entry.file.find('/') != std::string::npos || entry.file == "." || entry.file == ".."))
      why = "\"file\" is \"" + entry.file + "\"; give the name of a file in the gallery's folder";
    if (why.empty()) {
      bool known = false;
      for (const char* x : kGalleryExpectations) known = known || entry.expect == x;
      if (!known) why = "\"expect\" is \"" + entry.expect + "\"; accepted: " + accepted_expectations();
    }
    if (why.empty()) {
      entry.source = (folder / entry.file).string();
      if (!fs::is_regular_file(entry.source)) why = entry.source + " is not there";
    }
    if (why.empty() && e.contains("scenario")) {
      why = read_scenario(e["scenario"], entry.scenario);
      entry.options = e["scenario"];
    }
    if (why.empty()) {
      entry.title = texts(e.value("title", json()));
      entry.explanation = texts(e.value("explanation", json()));
      if (entry.title.empty()) why = "\"title\" is missing (give {\"en\": \"...\", \"zh_CN\": \"...\"})";
    }
    entry.scenario.kernel = entry.id;
    if (!why.empty()) {
      g.problems.push_back(index_path + ", entry " + std::to_string(number) +
                           (entry.file.empty() ? "" : " (" + entry.file + ")") + ": " + why);
      continue;
    }
    g.entries.push_back(std::move(entry));
  }
  return g;
}

Gallery load_gallery() {
  constexpr const char* kIndex = "assets/gallery/gallery.json";
  const std::string index = find_resource(kIndex);
  if (index.empty()) {
    Gallery g;
    g.error = std::string(kIndex) +
              " was not found next to the executable or in its source tree (set "
              "REDLAB_DATA_DIR to the folder that holds assets/)";
    return g;
  }
  return read_gallery(index);
}

const GalleryEntry* find_gallery_entry(const Gallery& gallery, const std::string& name) {
  for (const GalleryEntry& g : gallery.entries)
    if (g.file == name || fs::path(g.file).stem() == name) return &g;
  return nullptr;
}

std::vector<std::string> scenario_arguments(const GalleryEntry& g) {
  std::vector<std::string> args;
  if (!g.options.is_object()) return args;
  for (const auto& [key, value] : g.options.items()) {
    if (value.is_boolean() && !value.get<bool>()) continue;
    std::string option = "--" + key;
    std::replace(option.begin(), option.end(), '_', '-');
    args.push_back(option);
    if (value.is_string()) args.push_back(value.get<std::string>());
    if (value.is_number_unsigned()) args.push_back(std::to_string(value.get<std::uint64_t>()));
    if (value.is_array()) {  // focus blocks
      std::string list;
      for (const json& b : value) list += (list.empty() ? "" : ",") + b.dump();
      args.push_back(list);
    }
  }
  return args;
}

std::string shell_quoted(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-+=.,/:^@%") == std::string::npos;
  if (plain) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string text_in(const std::map<std::string, std::string>& by_lang, const std::string& lang) {
  if (auto it = by_lang.find(lang); it != by_lang.end()) return it->second;
  if (auto it = by_lang.find("en"); it != by_lang.end()) return it->second;
  return by_lang.empty() ? std::string() : by_lang.begin()->second;
}

std::string student_kernel_dir() { return (fs::path(user_dir(UserDir::data)) / "kernels").string(); }

GalleryCopy copy_gallery_file(const GalleryEntry& e, const std::string& dir, bool replace) {
  GalleryCopy c;
  c.path = (fs::path(dir) / e.file).string();
  std::string text, mine;
  if (!read_text_file(e.source, &text, &c.error)) return c;
  if (fs::exists(c.path)) {
    if (!read_text_file(c.path, &mine, &c.error)) return c;
    if (mine == text) {
      c.outcome = GalleryCopy::identical;
      return c;
    }
    if (!replace) {
      c.outcome = GalleryCopy::differs;
      return c;
    }
  }
  // The student's own folder: theirs alone (with no home folder it is under /tmp, where anyone could make it).
  if (std::string why; !make_private_dir(dir, &why)) {
    c.error = "cannot keep the copy in " + dir + ": " + why;
    return c;
  }
  try {
    write_file_atomically(c.path, text);
  } catch (const std::exception& ex) {
    c.error = ex.what();
    return c;
  }
  c.outcome = GalleryCopy::copied;
  return c;
}

}  // namespace redlab
