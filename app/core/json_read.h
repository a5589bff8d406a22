// JSON redlab reads from files a user can give or change (the window's settings, the lessons' progress, recorded
// hardware counts, a gallery's index, reference timings) and from its own child's output: untrusted text. Read
// with a bound on its nesting (nlohmann's parser, and every copy and dump of what it built, recurse once per level:
// a 120 KB progress file nested 60,000 deep ended the window), from regular files only (core/file_write.h:
// read_regular_file). Messages quote at most a short, printable excerpt of what they refuse.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace redlab {

// Deeper than any JSON redlab writes (a trace's body nests 9 levels, settings 1, the progress file 4).
constexpr int kJsonMaxDepth = 64;

// `text` parsed; throws std::runtime_error with a short reason ("it nests deeper than 64 levels", "not JSON at
// byte 12") when it is not JSON or nests deeper than `max_depth`.
nlohmann::json parse_json(std::string_view text, int max_depth = kJsonMaxDepth);
// The same for CBOR bytes.
nlohmann::json parse_cbor(const std::uint8_t* data, std::size_t size, int max_depth = kJsonMaxDepth);

// A value as a message may quote it: printable, at most `max_chars` characters of its JSON, "..." after a cut.
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 40);

}  // namespace redlab
