#include "core/json_read.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/printable.h"

namespace redlab {

namespace {

using json = nlohmann::json;

// The DOM parser, stopped at the first level past the limit (before it builds anything deeper).
class DepthLimitedSax : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  DepthLimitedSax(json& j, int max_depth) : json_sax_dom_parser(j, false), max_depth_(max_depth) {}
  bool start_object(std::size_t n) { return ++depth_ <= max_depth_ && json_sax_dom_parser::start_object(n); }
  bool start_array(std::size_t n) { return ++depth_ <= max_depth_ && json_sax_dom_parser::start_array(n); }
  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }
  bool end_array() {
    --depth_;
    return json_sax_dom_parser::end_array();
  }
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
    throw std::runtime_error(sax.too_deep()
                                 ? "it nests deeper than " + std::to_string(max_depth) + " levels"
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
