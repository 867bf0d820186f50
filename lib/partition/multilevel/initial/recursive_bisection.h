#pragma once
// k-way initial partitioning of the coarsest graph by recursive multilevel bisection.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// k-way partition of a (coarsest) graph by recursive multilevel bisection such that every
// block can end within final_max (one entry per constraint).
std::vector<BlockID> recursive_bisection(const CsrGraph& graph, BlockID k,
                                         std::span<const Weight> final_max,
                                         const MultilevelContext& ctx, std::uint64_t seed);

} // namespace gnnpart::ml
