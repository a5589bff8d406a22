// The hardware counts' toggle and comparison table, shared by the source view and the per-step view.
#pragma once
#include "core/hw_counts.h"
#include "model/model.h"

namespace redlab::gui {

using namespace redlab::model;

// The "Hardware counts" checkbox and the state line under it (collecting, why there are none, where they
// come from); asks the session for the counts while it is on. The counts when they are there, else nullptr.
const HwCounts* hw_toggle(Model&);
// Per step region and kind of access: the model's requests, the hardware's executions, their data (wavefronts
// or sectors), and the stated cause of a difference (its sentence in a tooltip).
void hw_comparison_table(Model&, const Trace&, const HwCounts&);
const char* hw_kind_text_key(HwKind);

}  // namespace redlab::gui
