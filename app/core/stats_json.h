// The machine-readable outputs of the CLI: `stats --json`, `list --json`, `bank --json`,
// and their text forms. The GUI's definitions of each figure live here too, so every surface agrees.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/bank_model.h"
#include "core/trace.h"

namespace redlab {

nlohmann::json stats_json(const Trace&);
// A kernel's fault as `stats --json` and trace files give it: kind, message, block, step, accesses.
nlohmann::json fault_json(const Fault&);
// What the CLI says of a fault's access beside its step: "thread 32 wrote s[32] at line 57" (an index out of bounds:
// "used").
std::string fault_access_text(const Fault&, const FaultAccess&);
std::string stats_text(const Trace&);
// The catalog, or the kernels a search finds (kernel_matches: "reduce1", "Harris 3", "PMPP").
nlohmann::json list_json(const std::string& find = "");
std::string list_text(const std::string& find = "");
nlohmann::json bank_json(const WarpAddresses&, const BankReport&);
std::string bank_text(const WarpAddresses&, const BankReport&);

// Why the measured SIMD efficiency differs from the figure a book prints, where redlab knows (PMPP).
std::string simd_efficiency_note(const Trace&);

// Definition of each per-step figure, keyed by its JSON name (tooltips, `stats` legend, docs).
const char* definition(const std::string& field);

}  // namespace redlab
