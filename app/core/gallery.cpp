#include "gallery.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "resources.h"

namespace redlab {

namespace {

constexpr const char* kIndex = "assets/gallery/gallery.json";
constexpr const char* kExpects[] = {"deadlock", "wrong_result", "race", "out_of_bounds"};
constexpr const char* kLanguages[] = {"en", "zh_CN"};

std::string text_field(const nlohmann::json& e, const char* key, const std::string& where) {
  if (!e.contains(key) || !e[key].is_string() || e[key].get<std::string>().empty())
    throw std::runtime_error(where + ": \"" + key + "\" is missing or not a non-empty string");
  return e[key].get<std::string>();
}

std::map<std::string, std::string> by_language(const nlohmann::json& e, const char* key, const std::string& where) {
  if (!e.contains(key) || !e[key].is_object())
    throw std::runtime_error(where + ": \"" + key + "\" must be an object with \"en\" and \"zh_CN\" texts");
  std::map<std::string, std::string> out;
  for (const char* lang : kLanguages) out[lang] = text_field(e[key], lang, where + ", \"" + key + "\"");
  if (e[key].size() != std::size(kLanguages))
    throw std::runtime_error(where + ": \"" + key + "\" has languages other than en and zh_CN");
  return out;
}

}  // namespace

std::vector<GalleryEntry> load_gallery() {
  const std::string index = find_resource(kIndex);
  if (index.empty())
    throw std::runtime_error(std::string(kIndex) + " was not found next to the executable or in its source tree "
                             "(set REDLAB_DATA_DIR to the folder that holds assets/)");
  std::ifstream f(index);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(index + " is not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("entries") || !j["entries"].is_array())
    throw std::runtime_error(index + ": expected {\"entries\": [...]}");
  const std::filesystem::path dir = std::filesystem::path(index).parent_path();
  std::vector<GalleryEntry> out;
  for (std::size_t i = 0; i < j["entries"].size(); ++i) {
    const nlohmann::json& e = j["entries"][i];
    const std::string where = index + ", entry " + std::to_string(i + 1);
    if (!e.is_object()) throw std::runtime_error(where + ": not an object");
    GalleryEntry g;
    g.file = text_field(e, "file", where);
    g.id = text_field(e, "id", where);
    g.from = text_field(e, "from", where);
    g.expect = text_field(e, "expect", where);
    if (std::find(std::begin(kExpects), std::end(kExpects), g.expect) == std::end(kExpects))
      throw std::runtime_error(where + ": \"expect\" is '" + g.expect +
                               "'; use deadlock, wrong_result, race or out_of_bounds");
    if (!e.contains("scenario") || !e["scenario"].is_object())
      throw std::runtime_error(where + ": \"scenario\" must be an object of options, as {\"n\": 4096, \"block\": 256}");
    for (const auto& [key, value] : e["scenario"].items())
      if (!value.is_number_unsigned() && !value.is_string() && !value.is_boolean())
        throw std::runtime_error(where + ": scenario option \"" + key + "\" must be a whole number, a string or a flag "
                                 "(true)");
    g.scenario = e["scenario"];
    g.title = by_language(e, "title", where);
    g.explanation = by_language(e, "explanation", where);
    std::error_code ec;
    g.path = (dir / g.file).string();
    if (!std::filesystem::is_regular_file(g.path, ec))
      throw std::runtime_error(where + ": its file " + g.path + " is not there");
    out.push_back(std::move(g));
  }
  return out;
}

const GalleryEntry* find_gallery_entry(const std::vector<GalleryEntry>& gallery, const std::string& name) {
  for (const GalleryEntry& g : gallery)
    if (g.file == name || std::filesystem::path(g.file).stem() == name) return &g;
  return nullptr;
}

std::vector<std::string> scenario_arguments(const GalleryEntry& g) {
  std::vector<std::string> args;
  for (const auto& [key, value] : g.scenario.items()) {
    if (value.is_boolean() && !value.get<bool>()) continue;
    std::string option = "--" + key;
    std::replace(option.begin(), option.end(), '_', '-');
    args.push_back(option);
    if (value.is_string()) args.push_back(value.get<std::string>());
    if (value.is_number_unsigned()) args.push_back(std::to_string(value.get<std::uint64_t>()));
  }
  return args;
}

}  // namespace redlab
