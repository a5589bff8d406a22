// The kernel catalog: the registry of kernel records. Each kernel's record lives beside its
// source (kernels/<family>/<id>.record.cuh, see kernels/kernel_record.h) and registers itself at start-up;
// this is the only place that looks a kernel up by its id.
#pragma once
#include <string>
#include <vector>

#include "kernels/kernel_record.h"

namespace redlab {

// Every registered kernel, in catalog order (record.order).
const std::vector<const KernelRecord*>& catalog();
// The record with this id, or nullptr.
const KernelRecord* find_kernel(const std::string& id);
// Whether a search finds the kernel: `query`, its letters' case and runs of spaces aside, is part of the kernel's
// id, title, what it teaches, its group or the names the course notes and books give it (KernelRecord::sources:
// "reduce1" finds the samples' reduce1, "Harris 3" Harris's third kernel, "PMPP" the book's chapter 10, "交错" the
// course note's interleaved pairs), or of `also` (the title in the window's language). An empty query finds every
// kernel.
bool kernel_matches(const KernelRecord&, const std::string& query, const std::string& also = "");
// "a, b, c" for error messages.
std::string kernel_ids();
// A kernel file's record as data, from the trace its second redlab wrote (Trace::kernel_record): registered without
// a launcher or formula (the first redlab never runs the student's code; make_plan refuses such a record), replacing
// the record a file of that id registered before. "" or why not: an id of the catalog's own is never replaced.
std::string register_file_record(const KernelRecord& data);
// Whether the record came from a kernel file's trace (register_file_record): it has no launcher and no formula.
bool is_file_record(const KernelRecord&);
// The path a loaded kernel file's record shows in the code view (its record names kernels/<dir>/<id>.cuh).
void set_kernel_source_file(const std::string& id, const std::string& path);
// What the rest of a family is measured against (KernelRecord::reference): cub_device, copy; or nullptr.
const KernelRecord* reference_kernel(Family);
// The family's first catalog kernel that launches thread block clusters, or nullptr: a kernel file that launches them
// has its scenario checked as this kernel's until its own record is there.
const KernelRecord* first_cluster_kernel(Family);

}  // namespace redlab
