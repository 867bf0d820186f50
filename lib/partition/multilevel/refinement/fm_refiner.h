#pragma once
// k-way FM with localized searches: each search starts from a few boundary seeds, repeatedly
// applies the best move (max edge-cut gain into a block with room) of the vertices around the
// search, lets the gains go negative, and rolls back to the best prefix. Gains are kept in a
// lazy max-heap and recomputed when a vertex is popped. Sequential and deterministic.
#include <cstdint>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Returns the total cut improvement.
Weight fm_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed);

} // namespace gnnpart::ml
