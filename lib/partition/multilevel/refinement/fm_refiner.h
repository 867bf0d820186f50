#pragma once
// k-way FM with localized searches: each search starts from a few boundary seeds, repeatedly
// applies the best move (max edge-cut gain into a block with room) of the vertices around the
// search, lets the gains go negative, and rolls back to the best prefix. Each vertex of a search
// sits once in an addressable max-heap keyed by its best gain; a move re-rates its neighbours
// from the gain cache (three candidate blocks when the old target stays valid). Sequential and
// deterministic. With ctx.fm_parallel and at least ctx.fm_parallel_min_threads (and two)
// threads in the arena, the parallel refiner (parallel_fm_refiner.h) runs instead; below that,
// with ctx.fm_block_groups, 2 threads or more and k >= 4, each pass runs in block groups
// (group_fm_refiner.h).
#include <cstdint>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

class KeptGainCache;

// Returns the total cut improvement. With `kept`, the gain cache comes from there (reused if it
// still describes p) and is left there, current, for the level's next FM run.
Weight fm_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed, KeptGainCache* kept = nullptr);

} // namespace gnnpart::ml
