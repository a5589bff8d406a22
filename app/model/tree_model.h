// The reduction tree of one focus block, rebuilt from a trace: the block's main array (shared, or its
// segment of the global scratch copy) after every step, who wrote each element and which elements combined.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace.h"

namespace redlab::model {

struct TreeEdge {
  std::uint32_t src, dst;  // element indices: src's value combined into dst
  std::uint32_t thread;  // the thread that did it
};

struct TreeModel {
  bool valid = false;
  bool global = false;  // the array lives in global memory (in-place kernels)
  bool registers = false;  // one cell per thread: its register value (warp-shuffle kernels)
  unsigned buffer = 0;  // global buffer
  std::uint32_t cells = 0;  // elements shown
  std::uint32_t steps = 0;  // trace steps
  std::uint32_t warps = 0;
  ElemType type = ElemType::int32;
  bool has_input_row = false;  // row 0 holds values known before any step (in-place kernels)
  std::uint64_t base_elem = 0;  // global: element index of cell 0
  std::uint32_t per_block = 0;  // cells per focus block (shared: the block's array; global: its segment)
  std::vector<std::uint32_t> blocks;  // the focus blocks, side by side in this order

  // Rows: row 0 = before step 0; row s+1 = after step s. Per row and cell:
  std::vector<std::uint64_t> bits;  // value bit pattern
  std::vector<std::uint8_t> known;  // 1 when the value is known
  std::vector<std::int32_t> writer;  // thread (within its block) that last wrote it, -1 none
  std::vector<std::int16_t> wstep;  // step of that write, -1 none
  std::vector<std::vector<TreeEdge>> edges;  // [step]
  std::vector<std::vector<std::uint8_t>> warp_divergent;  // [step][focus * warps + warp]
  std::vector<std::vector<std::uint8_t>> warp_active;  // [step][focus * warps + warp]

  std::size_t at(unsigned row, std::uint32_t cell) const { return std::size_t(row) * cells + cell; }
  unsigned rows() const { return steps + 1; }
  // Focus index of the block a cell belongs to.
  unsigned focus_of(std::uint32_t cell) const {
    if (!per_block) return 0;
    unsigned f = unsigned((global ? (base_elem + cell) / per_block - base_elem / per_block : cell / per_block));
    return f < blocks.size() ? f : unsigned(blocks.size() ? blocks.size() - 1 : 0);
  }
  bool divergent(unsigned step, unsigned focus, unsigned warp) const {
    return step < warp_divergent.size() && focus * warps + warp < warp_divergent[step].size() &&
           warp_divergent[step][focus * warps + warp];
  }
};

TreeModel build_tree(const Trace&);  // every focus block, side by side

// The zoom at which every value a row wrote has room for its label: `written` the cells the row wrote (ascending),
// `label_px` the widest label's width with its margins, `canvas_px` the canvas's width. Returns the cells in view
// (at least `min_cells`, at most `cells`) and the first cell in view, so that the row's first written values show;
// the rest are a drag away. Labels need label_px between the centres of two written cells, and a cell of their own
// when the cells are next to each other.
struct ValuesZoom {
  float vis = 0, x0 = 0;
};
ValuesZoom values_zoom(const std::vector<std::uint32_t>& written, std::uint32_t cells, float label_px, float canvas_px,
                       float min_cells = 8);

// Step display name: "tree: offset 64".
std::string step_name(const Trace&, unsigned step);
// What a step's label says in the UI's language ("offset 64"; a step without a label: its phase, "load").
std::string step_label_text(const Trace&, unsigned step);

}  // namespace redlab::model
