// The test of std_includes.py: a file that builds with Debian 12's libstdc++ (12, whose <functional> brings in
// std::find and the rest of <algorithm>) and not with Debian 13's (14, whose <functional> does not), as
// tests/fuzz/fuzz_lesson.cpp once did. The check must ask for <algorithm> here.
#include <functional>
#include <string>
#include <vector>

bool has_word(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}
