// Where redlab keeps the user's files, by the XDG base directory rules: settings (config), compiled kernel files
// (cache) and the student's copies of gallery files (data). The one place that reads XDG_* and HOME.
#pragma once
#include <string>

namespace redlab {

enum class UserDir { config, cache, data };

// redlab's folder of that kind (not made here): $XDG_CONFIG_HOME/redlab, $XDG_CACHE_HOME/redlab,
// $XDG_DATA_HOME/redlab when the variable is an absolute path (the rules ignore a relative one), else under the
// home folder (~/.config/redlab, ~/.cache/redlab, ~/.local/share/redlab; HOME, or the password database's entry
// when HOME is unset). With no home folder at all: the cache and data under the temporary folder, in a folder
// named for the user that make_private_dir checks is theirs; no config ("").
std::string user_dir(UserDir);

// Makes `path` and its missing parents, and makes sure only this user can change what is in it: a folder made
// here gets mode 0700; an existing one must be a folder (not a symlink) this user owns, and its mode is narrowed
// to 0700; every folder above it must belong to this user or root and, where others may write to it (as /tmp),
// have the sticky bit. False, with `why` a sentence naming the folder and what is wrong, when it is not so.
bool make_private_dir(const std::string& path, std::string* why);

}  // namespace redlab
