#include "model/i18n.h"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <unordered_map>
#include <utility>

namespace redlab::model {

namespace {
std::unordered_map<std::string, std::string> g_en, g_cur;
std::string g_lang = "en";
std::string g_all;

bool read_json(const std::string& path, std::unordered_map<std::string, std::string>& out) {
  std::ifstream f(path);
  if (!f) return false;
  try {
    nlohmann::json j = nlohmann::json::parse(f);
    out.clear();
    for (auto& [k, v] : j.items())
      if (v.is_string()) out[k] = v.get<std::string>();
    return true;
  } catch (const std::exception&) { return false; }
}

}  // namespace

bool i18n_load(const std::string& lang) {
  bool ok = read_json(find_resource("assets/i18n/en.json"), g_en);
  g_lang = lang == "zh_CN" ? "zh_CN" : "en";
  if (g_lang == "en")
    g_cur = g_en;
  else if (!read_json(find_resource("assets/i18n/" + g_lang + ".json"), g_cur))
    g_cur = g_en;
  g_all.clear();
  std::unordered_map<std::string, std::string> zh;
  read_json(find_resource("assets/i18n/zh_CN.json"), zh);
  for (auto* m : {&g_en, &zh})
    for (auto& [k, v] : *m) g_all += v;
  return ok;
}

const std::string& i18n_lang() { return g_lang; }

bool is_language(const std::string& lang) { return lang == "en" || lang == "zh_CN"; }

std::string i18n_system_default() {
  for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* v = std::getenv(var);
    if (v && *v) return std::string(v).rfind("zh", 0) == 0 ? "zh_CN" : "en";
  }
  return "en";
}

const char* tr(const char* key) {
  if (auto it = g_cur.find(key); it != g_cur.end()) return it->second.c_str();
  if (auto it = g_en.find(key); it != g_en.end()) return it->second.c_str();
  return key;
}

std::string L(const char* key) { return std::string(tr(key)) + "###" + key; }

std::string trf(const char* key, const std::vector<std::string>& args) {
  std::string s = tr(key);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string tag = "{" + std::to_string(i) + "}";
    for (size_t p = s.find(tag); p != std::string::npos; p = s.find(tag, p + args[i].size()))
      s.replace(p, tag.size(), args[i]);
  }
  return s;
}

std::string i18n_all_text() { return g_all; }

}  // namespace redlab::model
