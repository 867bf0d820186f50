#pragma once
// The graph engine's multilevel cycle: uncoarsen(initial_partition(coarsen(graph))). The steps:
// coarsening/coarsener.h, initial/initial_partition.h, refinement/refiners.h.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/initial/initial_partition.h"
#include "partition/multilevel/initial/recursive_bisection.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart::ml {

// k = limits.k blocks; epsilon steers the cluster weight limit; fraction0 is side 0's share of
// the weight when k == 2 (recursive bisection with odd k), 0.5 otherwise. fixed (empty: none)
// pins vertices to blocks: fixed[u] is u's block or kInvalidBlockID; the coarsest partition's
// blocks are renamed to agree with the fixed vertices, which then never move. With a start
// partition (a V-cycle), clusters stay within its blocks and it replaces initial partitioning;
// refinement never raises the cut, so the result is at least as good as the start. From
// ctx.initial.deep_min_k blocks on, without fixed vertices or a start, the cycle is deep
// multilevel's (deep_multilevel.h).
std::vector<BlockID> multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                          double epsilon, double fraction0,
                                          const MultilevelContext& ctx, std::uint64_t seed,
                                          std::span<const BlockID> fixed = {},
                                          std::span<const BlockID> start = {});

// Refines the coarsest partition, then projects and refines level by level to the input.
std::vector<BlockID> uncoarsen(CoarsestPartition coarsest, const CycleInput& in);

} // namespace gnnpart::ml
