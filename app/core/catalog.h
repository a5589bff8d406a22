// The kernel catalog (SPEC section 4): the registry of kernel records. Each kernel's record lives beside its
// source (kernels/<family>/<id>.record.cuh, see kernels/kernel_record.h) and registers itself at start-up;
// this is the only place that looks a kernel up by its id.
#pragma once
#include <string>
#include <vector>

#include "../../kernels/kernel_record.h"

namespace redlab {

// Every registered kernel, in catalog order (record.order).
const std::vector<const KernelRecord*>& catalog();
// The record with this id, or nullptr.
const KernelRecord* find_kernel(const std::string& id);
// "a, b, c" for error messages.
std::string kernel_ids();
// What the rest of a family is measured against (KernelRecord::reference): cub_device, copy; or nullptr.
const KernelRecord* reference_kernel(Family);

}  // namespace redlab
