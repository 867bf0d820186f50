#pragma once
// k-way initial partitioning of the coarsest graph by recursive multilevel bisection.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// The first step of recursive_bisection: a multilevel bisection of graph into side 0, which
// stands for (k + 1) / 2 final blocks, and side 1, for k / 2, each side within its share of the
// final slack (KaHyPar's adaptive epsilon) so that its blocks can end within final_max.
std::vector<BlockID> bisect_for_blocks(const CsrGraph& graph, BlockID k,
                                       std::span<const Weight> final_max,
                                       const MultilevelContext& ctx, std::uint64_t seed);

// k-way partition of a (coarsest) graph by recursive multilevel bisection such that every
// block can end within final_max (one entry per constraint).
std::vector<BlockID> recursive_bisection(const CsrGraph& graph, BlockID k,
                                         std::span<const Weight> final_max,
                                         const MultilevelContext& ctx, std::uint64_t seed);

} // namespace gnnpart::ml
