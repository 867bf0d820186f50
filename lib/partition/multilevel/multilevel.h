#pragma once
// The multilevel cycle: uncoarsen(initial_partition(coarsen(graph))).
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// k = limits.k blocks; epsilon steers the cluster weight limit; fraction0 is side 0's share of
// the weight when k == 2 (recursive bisection with odd k), 0.5 otherwise. fixed (empty: none)
// pins vertices to blocks: fixed[u] is u's block or kInvalidBlockID; the coarsest partition's
// blocks are renamed to agree with the fixed vertices, which then never move. With a start
// partition (a V-cycle), clusters stay within its blocks and it replaces initial partitioning;
// refinement never raises the cut, so the result is at least as good as the start.
std::vector<BlockID> multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                          double epsilon, double fraction0,
                                          const MultilevelContext& ctx, std::uint64_t seed,
                                          std::span<const BlockID> fixed = {},
                                          std::span<const BlockID> start = {});

// Renames the blocks of `blocks` so that as many fixed vertices as possible (heaviest first)
// already sit in their block, then puts every fixed vertex into its block.
void align_to_fixed(const CsrGraph& graph, BlockID k, std::span<const BlockID> fixed,
                    std::vector<BlockID>& blocks);

// k-way partition of a (coarsest) graph by recursive multilevel bisection such that every
// block can end within final_max (one entry per constraint).
std::vector<BlockID> recursive_bisection(const CsrGraph& graph, BlockID k,
                                         std::span<const Weight> final_max,
                                         const MultilevelContext& ctx, std::uint64_t seed);

// Rebalance, label propagation, FM, rebalance — on one level; then, if
// ctx.refinement.relaxed_fm_slack > 0, relaxed FM (kept only if balanced and better).
void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed);

} // namespace gnnpart::ml
