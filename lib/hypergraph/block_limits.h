#pragma once
// The hypergraph engine's bisection limits (BlockLimits itself lives in core/block_limits.h).
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "core/types.h"

namespace gnnpart::hg {

// Limits for bisecting hg into blocks [0, k0) and [k0, k) of `limits` (k = limits.k >= 2), with
// the imbalance spread over the ceil(log2 k) bisection levels (KaHyPar's adaptive epsilon).
BlockLimits bisection_limits(const Hypergraph& hg, const BlockLimits& limits, BlockID k0);

} // namespace gnnpart::hg
