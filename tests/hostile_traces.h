// Hostile trace bodies: a good trace's CBOR body tampered with, one
// field at a time, as a student could do with any CBOR editor. The unit test checks that each is refused with
// its reason; the fuzzer starts from them (tests/fuzz). Wrapped with trace_file_with_body, each has a right
// header and checksum, so only the body's own checks stand between it and the views.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace redlab::testdata {

struct HostileBody {
  std::string name;  // a file name for it
  std::vector<std::uint8_t> cbor;  // the body
  std::string refused_with;  // a part of the message that must refuse it
};

// A trace that ends at a fault (core/fault.h), made from `good` (the decoded body of a trace of at least 3 steps
// whose first focus block is block 0): that block alone up to its third step, a race named there between thread
// 32's write in step 1 and thread 0's read in step 2.
inline nlohmann::json faulted_body(const nlohmann::json& good) {
  nlohmann::json faulted = good;
  nlohmann::json steps = nlohmann::json::array(), focus_steps = nlohmann::json::array();
  for (std::size_t i = 0; i < 3 && i < good["steps"].size(); ++i) {
    steps.push_back(good["steps"][i]);
    focus_steps.push_back(good["focus"][0]["steps"][i]);
  }
  faulted["steps"] = steps;
  faulted["focus"] = nlohmann::json::array({{{"block", 0}, {"steps", focus_steps}}});
  const nlohmann::json wrote = {{"thread", 32}, {"step", 1}, {"file", "mine.cu"}, {"line", 57}, {"write", true}};
  const nlohmann::json was_read = {{"thread", 0}, {"step", 2}, {"file", "mine.cu"}, {"line", 57}, {"write", false}};
  faulted["fault"] = {{"kind", "race"},     {"message", "emulator: race in block 0 on shared s[32]"},
                      {"block", 0},         {"step", 2},
                      {"element", "s[32]"}, {"accesses", {wrote, was_read}}};
  return faulted;
}

// `good`: the decoded body of a trace with at least one shared access (two focus blocks make the
// high-address case below).
inline std::vector<HostileBody> hostile_bodies(const nlohmann::json& good) {
  std::vector<HostileBody> out;
  auto add = [&](std::string name, const nlohmann::json& body, std::string needle) {
    out.push_back({std::move(name), nlohmann::json::to_cbor(body), std::move(needle)});
  };
  auto first_shared_access = [](nlohmann::json& b) -> nlohmann::json* {
    for (auto& f : b["focus"])
      for (auto& step : f["steps"])
        for (auto& w : step)
          for (auto& a : w["accesses"])
            if (a["space"] == 0 && !a["addr"].empty()) return &a;
    return nullptr;
  };
  // A block of 2^31 warps; grid -1 and 1.5.
  {
    auto b = good;
    b["warps_per_block"] = std::uint64_t(1) << 31;
    add("warps-2e31", b, "warps_per_block");
  }
  {
    auto b = good;
    b["grid"] = -1;
    add("grid-negative", b, "grid is -1");
  }
  {
    auto b = good;
    b["grid"] = 1.5;
    add("grid-fraction", b, "grid is 1.5");
  }
  // An access 300 bytes wide; a shared access at a very high address (in the first focus block whose
  // steps have one; with two focus blocks this was a heap overflow in the tree model).
  if (auto b = good; auto* a = first_shared_access(b)) {
    (*a)["width"] = 300;
    add("width-300", b, "width");
  }
  if (auto b = good; auto* a = first_shared_access(b)) {
    (*a)["addr"][0] = 4000000000u;
    add("shared-address-4e9", b, "address");
  }
  // A scenario redlab could not have run.
  {
    auto b = good;
    b["scenario"]["block"] = 100;
    add("scenario-block-100", b, "its scenario");
  }
  // Shared arrays: more than 64, and one of 2^40 rows.
  {
    const nlohmann::json array = {{"name", "tile"},   {"elem_bytes", 4}, {"rows", 32},
                                  {"row_length", 33}, {"offset", 0},     {"flag", false}};
    auto b = good;
    b["shared_arrays"] = nlohmann::json::array();
    for (int i = 0; i < 65; ++i) b["shared_arrays"].push_back(array);
    add("shared-arrays-65", b, "at most 64 arrays");
    b["shared_arrays"] = nlohmann::json::array({array});
    b["shared_arrays"][0]["rows"] = std::uint64_t(1) << 40;
    add("shared-array-rows-2e40", b, "rows = ");
  }
  // Steps, focus blocks and warps far past what a recorded trace has.
  {
    auto b = good;
    b["focus"][0]["block"] = 1u << 30;
    add("focus-block-outside-grid", b, "focus");
  }
  // A fault (core/fault.h) that does not fit its trace: a step past the trace's, a block it does not hold (the trace
  // of a fault holds the faulting block alone), an unknown kind, three accesses, an access after the fault's step.
  {
    const nlohmann::json faulted = faulted_body(good);
    const nlohmann::json access = faulted["fault"]["accesses"][1];
    {
      auto b = faulted;
      b["fault"]["step"] = 3;
      add("fault-step-past-the-trace", b, "step = 3 is out of range");
    }
    {
      auto b = faulted;
      b["fault"]["block"] = 1;
      add("fault-block-not-held", b, "faulting block alone");
    }
    {
      auto b = faulted;
      b["fault"]["kind"] = "\x1b[31m";
      add("fault-kind-unknown", b, "fault kind");
    }
    {
      auto b = faulted;
      b["fault"]["accesses"].push_back(access);
      add("fault-three-accesses", b, "more than 2 accesses");
    }
    {
      auto b = faulted;
      b["fault"]["accesses"][1]["step"] = 7;
      add("fault-access-after-it", b, "at most the fault's");
    }
  }
  // 200,000 nested arrays (CBOR 0x81: an array of one element), refused by depth without a stack overflow.
  std::vector<std::uint8_t> deep(200000, 0x81);
  deep.push_back(0x00);
  out.push_back({"nested-200000", std::move(deep), "nests deeper"});
  return out;
}

}  // namespace redlab::testdata
