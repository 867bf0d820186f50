#pragma once
// Parallel, deterministic k-way FM. A pass shuffles the boundary vertices (as sequential FM
// does) and cuts them into searches of fm_seeds seeds, batches of up to fm_batch_searches
// searches (fewer on small levels: at least fm_min_batches batches per pass). The searches of
// a batch run in parallel, each on a thread-local view (its own moves over the partition and
// gain cache frozen at the batch's start; fm_search.h) and report their best prefix. The
// prefixes are then applied one search after another in batch order, every move re-rated
// exactly on the current partition (skipped if an earlier search of the pass moved its
// vertex), and each search is rolled back to the best prefix of what it really gained that
// overloads no block. So a batch never raises the cut nor breaks a limit, and the result
// depends on the seed and the batch sizes only, not on the thread count or the schedule.
// The searches of one batch may meet (on small levels and hot spots), which the re-rating
// catches at the price of the work the later ones did there.
#include <cstdint>
#include <vector>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

class GainCache;

// Returns the total cut improvement. Needs GainCache::supports(p.graph()).
Weight parallel_fm_refine(PartitionedGraph& p, const BlockLimits& limits,
                          const RefinementContext& ctx, std::uint64_t seed);
// The same on a gain cache of p's partition, which it keeps current. A non-empty `first_seeds`
// replaces the first pass's fm_pass_seeds.
Weight parallel_fm_refine(PartitionedGraph& p, const BlockLimits& limits,
                          const RefinementContext& ctx, std::uint64_t seed, GainCache& cache,
                          std::vector<NodeID> first_seeds = {});

// The seeds of FM pass `pass` (both refiners): the vertices with a neighbour in another block,
// shuffled by (seed, pass). With a gain cache of p, read from its rows instead of the
// adjacency (there a neighbour joined only by edges of weight 0 does not count). With
// `superset` (increasing ids, outside which no vertex is on the boundary: KeptGainCache's
// hint), only its vertices are looked at; the list is the same.
std::vector<NodeID> fm_pass_seeds(const PartitionedGraph& p, std::uint64_t seed, int pass,
                                  const GainCache* cache = nullptr,
                                  const std::vector<NodeID>* superset = nullptr);

} // namespace gnnpart::ml
