#include "model/bank_lab_expr.h"

#include <cctype>
#include <limits>
#include <utility>

namespace redlab::model {

namespace {
struct Parser {
  const std::string& s;
  std::size_t i = 0;
  ExprParse out;

  void skip() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool fail(ExprError e, std::size_t col, std::string tok = {}) {
    if (out.error == ExprError::none) {
      out.error = e;
      out.column = col;
      out.token = std::move(tok);
    }
    return false;
  }
  std::string token_at(std::size_t p) const {
    if (p >= s.size()) return {};
    if (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_') {
      std::size_t e = p;
      while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
      return s.substr(p, e - p);
    }
    return s.substr(p, 1);
  }
  void emit(LaneExpr::Op::Kind k, std::int64_t v = 0) { out.expr.code.push_back({k, v}); }

  // Binary levels, loosest first.
  bool parse_or() {
    if (!parse_xor()) return false;
    for (;;) {
      skip();
      if (i < s.size() && s[i] == '|') {
        ++i;
        if (!parse_xor()) return false;
        emit(LaneExpr::Op::bor);
      } else
        return true;
    }
  }
  bool parse_xor() {
    if (!parse_and()) return false;
    for (;;) {
      skip();
      if (i < s.size() && s[i] == '^') {
        ++i;
        if (!parse_and()) return false;
        emit(LaneExpr::Op::bxor);
      } else
        return true;
    }
  }
  bool parse_and() {
    if (!parse_shift()) return false;
    for (;;) {
      skip();
      if (i < s.size() && s[i] == '&') {
        ++i;
        if (!parse_shift()) return false;
        emit(LaneExpr::Op::band);
      } else
        return true;
    }
  }
  bool parse_shift() {
    if (!parse_add()) return false;
    for (;;) {
      skip();
      if (i + 1 < s.size() && s[i] == '<' && s[i + 1] == '<') {
        i += 2;
        if (!parse_add()) return false;
        emit(LaneExpr::Op::shl);
      } else if (i + 1 < s.size() && s[i] == '>' && s[i + 1] == '>') {
        i += 2;
        if (!parse_add()) return false;
        emit(LaneExpr::Op::shr);
      } else
        return true;
    }
  }
  bool parse_add() {
    if (!parse_mul()) return false;
    for (;;) {
      skip();
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        const char c = s[i++];
        if (!parse_mul()) return false;
        emit(c == '+' ? LaneExpr::Op::add : LaneExpr::Op::sub);
      } else {
        return true;
      }
    }
  }
  bool parse_mul() {
    if (!parse_unary()) return false;
    for (;;) {
      skip();
      if (i < s.size() && (s[i] == '*' || s[i] == '/' || s[i] == '%')) {
        const char c = s[i++];
        if (!parse_unary()) return false;
        emit(c == '*' ? LaneExpr::Op::mul : c == '/' ? LaneExpr::Op::div : LaneExpr::Op::mod);
      } else {
        return true;
      }
    }
  }
  bool parse_unary() {
    skip();
    if (i < s.size() && (s[i] == '-' || s[i] == '+' || s[i] == '~')) {
      const char c = s[i++];
      if (!parse_unary()) return false;
      if (c == '-') emit(LaneExpr::Op::neg);
      if (c == '~') emit(LaneExpr::Op::bnot);
      return true;
    }
    return parse_primary();
  }
  bool parse_primary() {
    skip();
    if (i >= s.size()) return fail(ExprError::unexpected, i, "");
    const char c = s[i];
    if (c == '(') {
      const std::size_t open = i++;
      if (!parse_or()) return false;
      skip();
      if (i >= s.size() || s[i] != ')') {
        if (i < s.size()) return fail(ExprError::unexpected, i, token_at(i));
        return fail(ExprError::missing_paren, open, "(");
      }
      ++i;
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t start = i;
      std::uint64_t v = 0;
      int base = 10;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
        if (i >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i])))
          return fail(ExprError::bad_number, start, token_at(start));
      }
      while (i < s.size() && std::isalnum(static_cast<unsigned char>(s[i]))) {
        const char d = s[i];
        int dv;
        if (std::isdigit(static_cast<unsigned char>(d)))
          dv = d - '0';
        else if (base == 16 && std::isxdigit(static_cast<unsigned char>(d)))
          dv = std::tolower(d) - 'a' + 10;
        else
          return fail(ExprError::bad_number, start, token_at(start));
        v = v * std::uint64_t(base) + std::uint64_t(dv);
        if (v > 0xffffffffull) return fail(ExprError::bad_number, start, token_at(start));
        ++i;
      }
      emit(LaneExpr::Op::lit, std::int64_t(v));
      return true;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = i;
      std::string name = token_at(i);
      i += name.size();
      if (name != "lane") return fail(ExprError::unknown_name, start, name);
      emit(LaneExpr::Op::lane);
      return true;
    }
    return fail(ExprError::unexpected, i, token_at(i));
  }
};
}  // namespace

ExprParse parse_lane_expr(const std::string& text) {
  Parser p{text, 0, {}};
  p.skip();
  if (p.i >= text.size()) {
    p.out.error = ExprError::empty;
    p.out.column = 0;
    return p.out;
  }
  if (p.parse_or()) {
    p.skip();
    if (p.i < text.size()) {
      if (text[p.i] == ')')
        p.fail(ExprError::unexpected, p.i, ")");
      else
        p.fail(ExprError::unexpected, p.i, p.token_at(p.i));
    }
  }
  if (!p.out.ok()) p.out.expr.code.clear();
  return p.out;
}

ExprValue eval_lane_expr(const LaneExpr& e, std::int64_t lane) {
  // Values stay within +-2^62 (operands fit 33 bits and are checked after each step), so no overflow.
  constexpr std::int64_t kLimit = std::int64_t(1) << 40;
  std::int64_t st[64];
  int sp = 0;
  ExprValue r;
  auto clampv = [&](std::int64_t v) { return v > kLimit ? kLimit : v < -kLimit ? -kLimit : v; };
  for (const LaneExpr::Op& op : e.code) {
    using K = LaneExpr::Op::Kind;
    if (op.kind == K::lit || op.kind == K::lane) {
      if (sp >= 64) {
        r.error = ExprError::unexpected;
        return r;
      }
      st[sp++] = op.kind == K::lit ? op.value : lane;
      continue;
    }
    if (op.kind == K::neg) {
      st[sp - 1] = -st[sp - 1];
      continue;
    }
    if (op.kind == K::bnot) {
      st[sp - 1] = ~st[sp - 1];
      continue;
    }
    const std::int64_t b = st[--sp], a = st[sp - 1];
    std::int64_t v = 0;
    switch (op.kind) {
      case K::add: v = a + b; break;
      case K::sub: v = a - b; break;
      case K::mul: v = a * b; break;
      case K::div:
      case K::mod:
        if (b == 0) {
          r.error = ExprError::div_zero;
          return r;
        }
        v = op.kind == K::div ? a / b : a % b;
        break;
      case K::shl:
      case K::shr:
        if (b < 0 || b > 31) {
          r.error = ExprError::bad_shift;
          return r;
        }
        v = op.kind == K::shl ? a * (std::int64_t(1) << b) : (a >> b);
        break;
      case K::band: v = a & b; break;
      case K::bxor: v = a ^ b; break;
      case K::bor: v = a | b; break;
      default: break;
    }
    st[sp - 1] = clampv(v);
  }
  r.value = sp ? st[sp - 1] : 0;
  return r;
}

LaneAddresses lane_addresses(const LaneExpr& e, std::uint32_t mask, unsigned width) {
  LaneAddresses out;
  for (int l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    ExprValue v = eval_lane_expr(e, l);
    ExprError err = v.error;
    if (err == ExprError::none && v.value < 0) err = ExprError::negative;
    if (err == ExprError::none && (v.value * std::int64_t(width) + std::int64_t(width) - 1) > 0xffffffffll)
      err = ExprError::too_large;
    if (err != ExprError::none) {
      if (out.error == ExprError::none) {
        out.error = err;
        out.bad_lane = l;
      }
      continue;
    }
    out.index[l] = v.value;
    out.addr[l] = std::uint32_t(v.value * std::int64_t(width));
  }
  return out;
}

}  // namespace redlab::model
