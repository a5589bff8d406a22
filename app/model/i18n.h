// Run-time switchable UI text (English / Simplified Chinese) from assets/i18n/<lang>.json.
#pragma once
#include <string>
#include <vector>

#include "core/resources.h"

namespace redlab::model {

// Loads assets/i18n/en.json and <lang>.json; `lang` is "en" or "zh_CN". Returns false if the English file
// is missing (the keys themselves are shown then).
bool i18n_load(const std::string& lang);
const std::string& i18n_lang();
// A language the interface has: "en" or "zh_CN" (what --lang, the settings file and i18n_load accept).
bool is_language(const std::string& lang);
// The system default: zh_CN when LC_ALL / LC_MESSAGES / LANG start with "zh", else en.
std::string i18n_system_default();

// Text for `key` in the current language (falls back to English, then to the key itself).
const char* tr(const char* key);
// "text###key": a label whose ImGui id stays the same in every language.
std::string L(const char* key);
// Text with {0}, {1}... replaced.
std::string trf(const char* key, const std::vector<std::string>& args);

// Every string of every loaded language (for building the CJK glyph range).
std::string i18n_all_text();

// Where assets/, kernels/ and shaders/ are (core/resources.h).
using redlab::find_resource;

}  // namespace redlab::model
