#pragma once
// Refinement of a k-way partition of a hypergraph, each step keeping (or restoring) the block
// weight limits max_weights (k * ncon entries, block b's constraint c at b * ncon + c).
#include <cstdint>
#include <span>

#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// Synchronous parallel label propagation: in each round every boundary vertex finds its best
// positive-gain move against a frozen state (parallel); the moves are then applied in a seeded
// order after an exact re-check (sequential). Returns the objective decrease.
Weight label_propagation_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                                std::span<const Weight> max_weights, std::uint64_t seed);

// k-way FM: localized searches from boundary seeds with a max-gain priority queue, gains of
// pins re-rated when a move changes a net's pin counts in a way that matters (Phi(e, from)
// drops to 0 or 1, Phi(e, to) rises to 1 or 2, or a net gets near uncut), negative moves
// allowed, rollback to the best prefix of each search. Returns the objective decrease. For km1
// (and any objective at k = 2) it rebuilds and uses `cache`, whose memory calls share; there,
// with at least ctx.refinement.fm_parallel_min_threads threads, it runs parallel FM
// (parallel_fm_refiner.h) instead.
Weight fm_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                 std::span<const Weight> max_weights, std::uint64_t seed, Km1GainCache& cache);

// True when k-way FM (sequential or parallel) runs another round after one that gained
// round_gain and left the objective at `objective`.
inline bool fm_next_round(Weight round_gain, Weight objective, const RefinementContext& rc) {
  return round_gain > 0 &&
         static_cast<double>(round_gain) > rc.fm_min_improvement * static_cast<double>(objective);
}

// Moves vertices out of overloaded blocks, best gain first, into blocks they fit. Returns true
// when no block is over its limit afterwards.
bool rebalance(PartitionedHypergraph& phg, const HgContext& ctx,
               std::span<const Weight> max_weights);
// The same for km1, with gains read from `cache`, which must be phg's (built_for) and is kept
// so: the same moves as the rebalancer above, without recounting every candidate's nets
// (GainComputer). Its work count is left as it was.
bool rebalance(PartitionedHypergraph& phg, std::span<const Weight> max_weights,
               Km1GainCache& cache);

// Gives every empty block one vertex (best gain, from a block with more than one vertex).
void fill_empty_blocks(PartitionedHypergraph& phg, const HgContext& ctx,
                       std::span<const Weight> max_weights);

bool is_balanced(const PartitionedHypergraph& phg, std::span<const Weight> max_weights);

} // namespace gnnpart::hg
