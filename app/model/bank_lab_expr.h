// The bank lab's lane expressions: an integer expression of `lane` (0..31) giving the element index each lane
// accesses, e.g. `lane*33`, `(lane*7)%32`, `lane/2`, `lane^1`. A small recursive-descent parser with C
// precedence: unary - + ~, then * / %, + -, << >>, &, ^, |; parentheses; decimal and 0x hex literals.
// Errors carry a code and the column (0-based) so the window can show them in place, in either language.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace redlab::model {

enum class ExprError {
  none,
  empty,  // nothing to evaluate
  unexpected,  // `token` where an operand or operator was expected
  unknown_name,  // a name other than `lane`
  missing_paren,  // '(' without ')'
  bad_number,  // a literal that does not fit 32 bits
  div_zero,  // division or remainder by zero, for lane `lane`
  negative,  // the index is negative for lane `lane`
  too_large,  // index * width does not fit a 32-bit byte address, for lane `lane`
  bad_shift,  // shift count outside 0..31, for lane `lane`
};

struct LaneExpr {
  // Postfix program: each op pushes or combines int64 values.
  struct Op {
    enum Kind : std::uint8_t { lit, lane, neg, bnot, add, sub, mul, div, mod, shl, shr, band, bxor, bor } kind;
    std::int64_t value = 0;
  };
  std::vector<Op> code;
};

struct ExprParse {
  LaneExpr expr;
  ExprError error = ExprError::none;
  std::size_t column = 0;  // where the error is
  std::string token;  // the offending text (unexpected, unknown_name)
  bool ok() const { return error == ExprError::none; }
};

ExprParse parse_lane_expr(const std::string& text);

struct ExprValue {
  std::int64_t value = 0;
  ExprError error = ExprError::none;
};
ExprValue eval_lane_expr(const LaneExpr&, std::int64_t lane);

// Byte addresses for 32 lanes: index(lane) * width. Reports the first lane that fails (div_zero, negative,
// too_large, bad_shift) in `error` / `bad_lane`; only lanes in `mask` are evaluated.
struct LaneAddresses {
  std::uint32_t addr[32] = {};
  std::int64_t index[32] = {};
  ExprError error = ExprError::none;
  int bad_lane = -1;
};
LaneAddresses lane_addresses(const LaneExpr&, std::uint32_t mask, unsigned width);

}  // namespace redlab::model
