#pragma once
// The balance vocabulary both engines and the METIS backend speak: per-constraint bounds of a
// run, and per-block limits of one (sub)problem. Entries of k * ncon arrays sit at b * ncon + c.
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

class CsrGraph;
class Hypergraph;

struct BlockLimits {
  BlockID k = 0;
  int ncon = 1;
  std::vector<Weight> max_weight; // the most block b may carry in constraint c
  std::vector<Weight> perfect;    // block b's share of constraint c when perfectly balanced
  Weight max(BlockID b, int c) const { return max_weight[static_cast<std::size_t>(b) * ncon + c]; }
  Weight perfect_of(BlockID b, int c) const {
    return perfect[static_cast<std::size_t>(b) * ncon + c];
  }
};

// Total vertex weight of each constraint (ncon entries).
std::vector<Weight> vertex_weight_totals(const CsrGraph& graph);
std::vector<Weight> vertex_weight_totals(const Hypergraph& hg);

// Per-constraint bounds of a run: max_block_weight(totals[c], k, epsilon).
std::vector<Weight> balance_bounds(std::span<const Weight> totals, BlockID k, double epsilon);

// The final bound of the run for every block: max_block_weight(W_c, k, epsilon), perfect share
// ceil(W_c / k).
BlockLimits uniform_limits(std::span<const Weight> totals, BlockID k, double epsilon);
BlockLimits uniform_limits(const CsrGraph& graph, BlockID k, double epsilon);
BlockLimits uniform_limits(const Hypergraph& hg, BlockID k, double epsilon);

// The limits of blocks [first, first + count) as a problem of its own.
BlockLimits sub_limits(const BlockLimits& limits, BlockID first, BlockID count);

} // namespace gnnpart
