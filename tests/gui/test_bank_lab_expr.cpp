// The bank lab's lane-expression parser and evaluator.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/bank_lab_expr.h"

using namespace redlab::model;

namespace {
std::int64_t ev(const std::string& s, std::int64_t lane) {
  ExprParse p = parse_lane_expr(s);
  EXPECT_TRUE(p.ok()) << s << " column " << p.column << " token '" << p.token << "'";
  ExprValue v = eval_lane_expr(p.expr, lane);
  EXPECT_EQ(v.error, ExprError::none) << s;
  return v.value;
}
ExprParse bad(const std::string& s) {
  ExprParse p = parse_lane_expr(s);
  EXPECT_FALSE(p.ok()) << s;
  return p;
}
}  // namespace

TEST(BankLabExpr, Examples) {
  for (std::int64_t l = 0; l < 32; ++l) {
    EXPECT_EQ(ev("lane", l), l);
    EXPECT_EQ(ev("lane*33", l), l * 33);
    EXPECT_EQ(ev("(lane*7)%32", l), (l * 7) % 32);
    EXPECT_EQ(ev("lane/2", l), l / 2);
    EXPECT_EQ(ev("lane^1", l), l ^ 1);
    EXPECT_EQ(ev("lane & 3 | 8", l), (l & 3) | 8);
    EXPECT_EQ(ev("lane << 2 >> 1", l), (l << 2) >> 1);
    EXPECT_EQ(ev("  2 * ( lane + 1 )  ", l), 2 * (l + 1));
  }
}

TEST(BankLabExpr, PrecedenceAndAssociativity) {
  EXPECT_EQ(ev("1 + 2 * 3", 0), 7);
  EXPECT_EQ(ev("(1 + 2) * 3", 0), 9);
  EXPECT_EQ(ev("10 - 4 - 3", 0), 3);  // left to right
  EXPECT_EQ(ev("64 / 4 / 2", 0), 8);
  EXPECT_EQ(ev("1 << 2 + 1", 0), 8);  // + binds tighter than <<
  EXPECT_EQ(ev("6 & 3 ^ 1", 0), 3);  // & before ^
  EXPECT_EQ(ev("4 ^ 1 | 2", 0), 7);  // ^ before |
  EXPECT_EQ(ev("-lane + 40", 8), 32);
  EXPECT_EQ(ev("~lane & 31", 5), 26);
  EXPECT_EQ(ev("0x20 * lane", 3), 96);
  EXPECT_EQ(ev("lane % 32 * 32 + lane / 32", 5), 160);
}

TEST(BankLabExpr, ParseErrorsCarryTheColumn) {
  ExprParse p = bad("");
  EXPECT_EQ(p.error, ExprError::empty);
  p = bad("   ");
  EXPECT_EQ(p.error, ExprError::empty);
  p = bad("lane *");
  EXPECT_EQ(p.error, ExprError::unexpected);
  EXPECT_EQ(p.column, 6u);
  p = bad("lane ** 2");
  EXPECT_EQ(p.error, ExprError::unexpected);
  EXPECT_EQ(p.column, 6u);
  EXPECT_EQ(p.token, "*");
  p = bad("(lane * 7 % 32");
  EXPECT_EQ(p.error, ExprError::missing_paren);
  EXPECT_EQ(p.column, 0u);
  p = bad("lane) * 2");
  EXPECT_EQ(p.error, ExprError::unexpected);
  EXPECT_EQ(p.column, 4u);
  EXPECT_EQ(p.token, ")");
  p = bad("tid * 2");
  EXPECT_EQ(p.error, ExprError::unknown_name);
  EXPECT_EQ(p.token, "tid");
  EXPECT_EQ(p.column, 0u);
  p = bad("lane 2");
  EXPECT_EQ(p.error, ExprError::unexpected);
  EXPECT_EQ(p.column, 5u);
  p = bad("lane * 12a");
  EXPECT_EQ(p.error, ExprError::bad_number);
  EXPECT_EQ(p.column, 7u);
  p = bad("99999999999");
  EXPECT_EQ(p.error, ExprError::bad_number);
  p = bad("lane $ 2");
  EXPECT_EQ(p.error, ExprError::unexpected);
  EXPECT_EQ(p.token, "$");
  EXPECT_TRUE(p.expr.code.empty());
}

TEST(BankLabExpr, EvaluationErrors) {
  ExprParse p = parse_lane_expr("32 / (lane - 3)");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(eval_lane_expr(p.expr, 3).error, ExprError::div_zero);
  EXPECT_EQ(eval_lane_expr(p.expr, 4).value, 32);
  p = parse_lane_expr("lane % (lane - lane)");
  EXPECT_EQ(eval_lane_expr(p.expr, 1).error, ExprError::div_zero);
  p = parse_lane_expr("1 << lane + 1");
  EXPECT_EQ(eval_lane_expr(p.expr, 31).error, ExprError::bad_shift);

  LaneAddresses a = lane_addresses(parse_lane_expr("lane - 2").expr, 0xffffffffu, 4);
  EXPECT_EQ(a.error, ExprError::negative);
  EXPECT_EQ(a.bad_lane, 0);
  a = lane_addresses(parse_lane_expr("lane - 2").expr, 0xfffffffcu, 4);  // lanes 0, 1 inactive
  EXPECT_EQ(a.error, ExprError::none);
  EXPECT_EQ(a.addr[2], 0u);
  EXPECT_EQ(a.addr[31], 116u);
  a = lane_addresses(parse_lane_expr("lane * 0x10000000").expr, 0xffffffffu, 16);
  EXPECT_EQ(a.error, ExprError::too_large);
  EXPECT_EQ(a.bad_lane, 1);
}

TEST(BankLabExpr, AddressesAreIndexTimesWidth) {
  const LaneExpr e = parse_lane_expr("lane*33").expr;
  for (unsigned w : {4u, 8u, 16u}) {
    LaneAddresses a = lane_addresses(e, 0xffffffffu, w);
    ASSERT_EQ(a.error, ExprError::none);
    for (unsigned l = 0; l < 32; ++l) {
      EXPECT_EQ(a.index[l], std::int64_t(l) * 33);
      EXPECT_EQ(a.addr[l], l * 33 * w);
    }
  }
  LaneAddresses a = lane_addresses(e, 0x5u, 4);  // lanes 0 and 2 only
  EXPECT_EQ(a.addr[2], 264u);
  EXPECT_EQ(a.addr[1], 0u);
}

#include "model/bank_lab.h"
#include "model/i18n.h"

namespace {
std::string explain(const std::string& expr, unsigned width, bool store, std::uint32_t mask = 0xffffffffu) {
  redlab::WarpAddresses wa;
  wa.mask = mask;
  LaneAddresses la = lane_addresses(parse_lane_expr(expr).expr, mask, width);
  for (int l = 0; l < 32; ++l) wa.addr[size_t(l)] = la.addr[l];
  wa.width = width;
  wa.store = store;
  return explain_bank_report(redlab::bank_report(wa), wa);
}
}  // namespace

TEST(BankLabExplain, SaysWhichLanesCollideInWhichBank) {
  ASSERT_TRUE(i18n_load("en"));
  std::string s = explain("lane*4", 4, false);
  EXPECT_NE(s.find("Lanes 0, 8, 16, 24 read 4 different words in bank 0: a 4-way conflict"), std::string::npos) << s;
  EXPECT_NE(s.find("4 wavefronts where 1 would do"), std::string::npos) << s;
  EXPECT_NE(s.find("7 other bank(s)"), std::string::npos) << s;
  s = explain("lane", 4, false);
  EXPECT_NE(s.find("1 wavefront(s), the ideal"), std::string::npos) << s;
  s = explain("lane/2", 4, false);
  EXPECT_NE(s.find("Lanes 0, 1 read the same word in bank 0: a broadcast"), std::string::npos) << s;
  s = explain("0", 4, true);
  EXPECT_NE(s.find("write the same word"), std::string::npos) << s;
  s = explain("lane*2", 8, false);
  EXPECT_NE(s.find("2 phase(s) of 16 lanes"), std::string::npos) << s;
  EXPECT_NE(s.find("In phase 0, lanes 0, 8 read 2 different words in bank 0"), std::string::npos) << s;
  s = explain("lane", 4, false, 0);
  EXPECT_NE(s.find("No lane is active"), std::string::npos) << s;
  ASSERT_TRUE(i18n_load("zh_CN"));
  s = explain("lane*4", 4, false);
  EXPECT_NE(s.find("4 路冲突"), std::string::npos) << s;
  i18n_load("en");
}
