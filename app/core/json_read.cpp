#include "json_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <vector>

#include "printable.h"

namespace redlab {

namespace {

using json = nlohmann::json;

// The DOM parser, stopped at the first level past the limit (before it builds anything deeper).
class DepthLimitedSax : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  DepthLimitedSax(json& j, int max_depth) : json_sax_dom_parser(j, false), max_depth_(max_depth) {}
  bool start_object(std::size_t n) { return ++depth_ <= max_depth_ && json_sax_dom_parser::start_object(n); }
  bool start_array(std::size_t n) { return ++depth_ <= max_depth_ && json_sax_dom_parser::start_array(n); }
  bool end_object() { --depth_; return json_sax_dom_parser::end_object(); }
  bool end_array() { --depth_; return json_sax_dom_parser::end_array(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    error_at_ = position;
    return false;
  }
  bool too_deep() const { return depth_ > max_depth_; }
  std::size_t error_at() const { return error_at_; }

 private:
  int depth_ = 0, max_depth_;
  std::size_t error_at_ = 0;
};

template <class Parse>
json parse_limited(int max_depth, const char* format, Parse parse) {
  json j;
  DepthLimitedSax sax(j, max_depth);
  if (!parse(sax) || sax.too_deep())
    throw std::runtime_error(sax.too_deep() ? "it nests deeper than " + std::to_string(max_depth) + " levels"
                                            : std::string("not ") + format + " at byte " + std::to_string(sax.error_at()));
  return j;
}

}  // namespace

json parse_json(std::string_view text, int max_depth) {
  return parse_limited(max_depth, "JSON", [&](DepthLimitedSax& sax) {
    return json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json, true, false);
  });
}

json parse_cbor(const std::uint8_t* data, std::size_t size, int max_depth) {
  return parse_limited(max_depth, "CBOR", [&](DepthLimitedSax& sax) {
    return json::sax_parse(data, data + size, &sax, json::input_format_t::cbor);
  });
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes, std::string* text) {
  const std::string shown = "'" + printable(path) + "'";
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return "cannot read " + shown + ": " + std::strerror(errno);
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = "cannot read " + shown + ": " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = shown + " is not a regular file (" +
          (S_ISFIFO(st.st_mode) ? "a pipe" : S_ISDIR(st.st_mode) ? "a folder" : "a device or socket") + ")";
  } else if (std::uint64_t(st.st_size) > max_bytes) {
    why = shown + " has " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
          " it may have";
  } else {
    text->assign(max_bytes + 1, '\0');
    std::size_t got = 0;
    while (got < text->size()) {
      const ssize_t n = ::read(fd, text->data() + got, text->size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        why = "cannot read " + shown + ": " + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      got += std::size_t(n);
    }
    text->resize(got);
    if (why.empty() && got > max_bytes) why = shown + " grew past " + std::to_string(max_bytes) + " bytes while it was read";
  }
  ::close(fd);
  if (!why.empty()) text->clear();
  return why;
}

std::string json_excerpt(const json& value, std::size_t max_chars) {
  std::string s;
  if (value.is_string()) {
    const std::string& v = value.get_ref<const std::string&>();
    s = "\"" + v.substr(0, max_chars) + (v.size() > max_chars ? "...\"" : "\"");
  } else if (value.is_array()) {
    s = "an array of " + std::to_string(value.size()) + " element(s)";
  } else if (value.is_object()) {
    s = "an object of " + std::to_string(value.size()) + " key(s)";
  } else {
    s = value.dump();
  }
  s = printable(s);
  return s.size() > max_chars + 8 ? s.substr(0, max_chars) + "..." : s;
}

}  // namespace redlab
