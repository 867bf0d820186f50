#pragma once
// Parallel, deterministic k-way FM for km1 (and any objective at k = 2), the hypergraph twin of
// the graph engine's (partition/multilevel/refinement/parallel_fm_refiner.h).
// A round shuffles the boundary vertices as sequential FM does and cuts them into searches of
// fm_seeds_per_search seeds, batches of up to max(fm_batch_searches, 2 x threads) searches
// (fewer on small levels: at least fm_min_batches batches per round). The searches of a batch
// run in parallel, each a localized FM search (max-gain queue, negative moves, stop after
// fm_max_moves_without_improvement moves past its best) on a thread-local view: the partition
// and the km1 gain cache frozen at the batch's start, plus the search's own moves: blocks, block
// weights, pin counts and gain cache entries as deltas (Mt-KaHyPar's delta gain cache), kept
// exact by the cache's update rules, so a search sees the gains sequential FM would.
// Each search reports its best prefix. The prefixes are then applied one search after another
// in batch order, every move's gain recomputed exactly by the shared cache (a move of a vertex
// an earlier search of the round moved is skipped), and each search is rolled back to the best
// prefix of what it really gained that leaves no block above max(its limit, its weight before).
// So a batch never raises km1 nor breaks a limit, and the result depends on the seed and the
// batch sizes only, not on the schedule: on the thread count only beyond fm_batch_searches / 2.
#include <cstdint>
#include <span>

#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// FM rounds as fm_refine's (refinement.h) on `cache`, which must be the cache of phg's current
// assignment. Returns the km1 decrease.
Weight parallel_fm_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                          std::span<const Weight> max_weights, std::uint64_t seed,
                          Km1GainCache& cache);

} // namespace gnnpart::hg
