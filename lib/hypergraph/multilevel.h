#pragma once
// The hypergraph engine's multilevel cycle, uncoarsen(initial_partition(coarsen(H))), and the
// V-cycles built on it. The steps: coarsening.h, recursive_bipartition.h (with
// initial_bisection.h), refiners.h.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/coarsening.h"
#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/recursive_bipartition.h"
#include "hypergraph/refiners.h"

namespace gnnpart::hg {

// `cache` is the FM gain cache whose memory the levels share (see Km1GainCache).

// k-way partition of hg under limits (limits.k blocks), refined on every level.
std::vector<BlockID> multilevel_partition(const Hypergraph& hg, const HgContext& ctx,
                                          const BlockLimits& limits, std::uint64_t seed,
                                          Km1GainCache& cache);

// One V-cycle: coarsens without merging across blocks of `blocks`, keeps the partition as the
// initial one, and refines it on every level on the way back. Never worse in objective.
std::vector<BlockID> vcycle(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                            std::vector<BlockID> blocks, std::uint64_t seed, Km1GainCache& cache);

// The flow settings of a run from a graph partitioner's start: on every level where
// flows.on_graph_start, else on the input level only where k <= flows.graph_start_flows_max_k;
// regions of graph_start_alpha.
void use_graph_start_flows(HgContext& ctx);
// The same for the V-cycles from `start`, a partition of hg: flows on the input level also at
// k > 2 where the start's km1 is at most flows.graph_start_flows_max_volume_per_vertex per
// vertex of hg (a thin separator between block interiors) and net_size_skew(hg) is at most
// flows.graph_start_flows_max_net_size_skew.
void use_graph_start_flows(HgContext& ctx, const Hypergraph& hg, std::span<const BlockID> start);

// The pin-weighted mean net size (the size of the net of a random pin) over the mean net size:
// 1 where every net has the same size, large where a few nets (hubs) hold many pins.
double net_size_skew(const Hypergraph& hg);

// V-cycles that improve a graph partitioner's start `blocks` in place:
// ctx.refinement.graph_start_vcycles, then one more (up to graph_start_max_vcycles in all) while
// the last one divided the objective by at least graph_start_extra_vcycle_factor. Returns how
// many ran. Seeds as partition_hypergraph's V-cycles.
int graph_start_vcycles(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                        std::vector<BlockID>& blocks, Km1GainCache& cache);

// The inputs of one cycle and the partition of its coarsest level.
struct HgCycleInput {
  const HgContext& ctx;
  const BlockLimits& limits;
  std::uint64_t seed;
  // A V-cycle: the coarsening kept to a given partition, which becomes the coarsest level's
  // (the partition itself goes to coarsen, which frees it level by level).
  bool given = false;
  Km1GainCache& cache;
};
struct HgCoarsestPartition {
  HgHierarchy hierarchy;
  std::vector<BlockID> blocks;
  bool refined = false; // the coarsest level's refinement is done: uncoarsen does not repeat it
};

// The deeper start of a run whose coarsening stalled on `stalled`: ctx.coarsening.
// stalled_deep_runs multilevel runs of it (seeds derived from `seed`) with clusters and a
// vertex limit of stalled_deep_multiplier, the balanced one of lowest objective (the first
// among equals); empty if none is balanced.
std::vector<BlockID> deeper_start(const Hypergraph& stalled, const HgContext& ctx,
                                  const BlockLimits& limits, std::uint64_t seed);

// The given partition on the coarsest level, else a flat bisection (k = 2) or recursive
// bipartitioning of the coarsest hypergraph.
HgCoarsestPartition initial_partition(HgHierarchy hierarchy, const HgCycleInput& in);

// Refines the coarsest partition, then projects and refines level by level to the input.
std::vector<BlockID> uncoarsen(HgCoarsestPartition coarsest, const HgCycleInput& in);

} // namespace gnnpart::hg
