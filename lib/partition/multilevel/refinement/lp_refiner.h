#pragma once
// Size-constrained label-propagation refinement with edge-cut gains. Moves of a batch are
// proposed in parallel from the state before the batch, then re-checked (exact gain and block
// weights) and applied in batch order, so the result does not depend on the thread count.
#include <cstdint>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Returns the total cut improvement.
Weight lp_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed);

} // namespace gnnpart::ml
