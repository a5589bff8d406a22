// The bank lab's words: a paragraph, in the UI language, saying what a bank report means for one request.
#pragma once
#include <cstdint>
#include <string>

#include "core/bank_model.h"
#include "model/bank_lab_expr.h"

namespace redlab::model {

// "lanes 0, 8, 16, 24 read 4 different words in bank 0: a 4-way conflict, 4 wavefronts where 1 would do" ...
std::string explain_bank_report(const BankReport&, const WarpAddresses&);
// "0, 8, 16, 24" (at most `max` lanes, then "... (N lanes)").
std::string lane_list(std::uint32_t lanes, unsigned max = 8);
// An expression error as text in the UI language.
std::string expr_error_text(ExprError, const std::string& token, int lane);

}  // namespace redlab::model
