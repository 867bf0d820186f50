#pragma once
// Per-block weight limits of one (sub)problem: max[b * ncon + c] is the most block b may carry
// in constraint c, perfect[b * ncon + c] its share of the total when perfectly balanced.
#include <vector>

#include "core/hypergraph.h"
#include "core/types.h"

namespace gnnpart {

struct BlockLimits {
  BlockID k = 0;
  int ncon = 1;
  std::vector<Weight> max;
  std::vector<Weight> perfect;
  Weight max_of(BlockID b, int c) const { return max[static_cast<std::size_t>(b) * ncon + c]; }
};

std::vector<Weight> total_weights(const Hypergraph& hg);

// The final bound of the run: max_block_weight(W_c, k, epsilon) for every block.
BlockLimits uniform_limits(const Hypergraph& hg, BlockID k, double epsilon);

// Limits for bisecting hg into blocks [0, k0) and [k0, k) of `limits` (k = limits.k >= 2), with
// the imbalance spread over the ceil(log2 k) bisection levels (KaHyPar's adaptive epsilon).
BlockLimits bisection_limits(const Hypergraph& hg, const BlockLimits& limits, BlockID k0);

// The limits of blocks [first, first + count) as a problem of its own.
BlockLimits sub_limits(const BlockLimits& limits, BlockID first, BlockID count);

} // namespace gnnpart
