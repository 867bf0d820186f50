#pragma once
// The multilevel cycle, uncoarsen(initial_partition(coarsen(H))), and recursive bipartitioning
// (each bisection itself multilevel) used as the initial partitioner of the coarsest level.
#include <cstdint>
#include <vector>

#include "core/hypergraph.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"

namespace gnnpart {

// `cache` is the FM gain cache whose memory the levels share (see Km1GainCache).

// k-way partition of hg under limits (limits.k blocks), refined on every level.
std::vector<BlockID> multilevel_partition(const Hypergraph& hg, const HgContext& ctx,
                                          const BlockLimits& limits, std::uint64_t seed,
                                          Km1GainCache& cache);

// One V-cycle: coarsens without merging across blocks of `blocks`, keeps the partition as the
// initial one, and refines it on every level on the way back. Never worse in objective.
std::vector<BlockID> vcycle(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                            std::vector<BlockID> blocks, std::uint64_t seed, Km1GainCache& cache);

// V-cycles that improve a graph partitioner's start `blocks` in place:
// ctx.refinement.graph_start_vcycles, then one more (up to graph_start_max_vcycles in all) while
// the last one divided the objective by at least graph_start_extra_vcycle_factor. Returns how
// many ran. Seeds as partition_hypergraph's V-cycles.
int graph_start_vcycles(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                        std::vector<BlockID>& blocks, Km1GainCache& cache);

// Recursive bipartitioning of hg into limits.k blocks.
std::vector<BlockID> recursive_bipartition(const Hypergraph& hg, const HgContext& ctx,
                                           const BlockLimits& limits, std::uint64_t seed);

// LP, FM, rebalancing and (if enabled) flow refinement of one level.
void refine_level(class PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                  std::uint64_t seed, Km1GainCache& cache);

} // namespace gnnpart
