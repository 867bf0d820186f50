#pragma once
// Greedy k-way refinement, METIS's Greedy_KWayOptimize in its cut mode: passes over the
// boundary vertices in a seeded random order, each moved at once to its best block with room
// (most connection, then the lighter block) when that gains, or gains nothing and leaves the
// target lighter than the source was. No negative moves, nothing rolled back, so a pass costs a
// read of each boundary vertex's gain-cache row.
//
// Why after strict FM (docs/generalisation.md): a localized FM pass visits each boundary vertex
// once as a seed and locks what it keeps, so moves that a later search opened next to a kept
// region stay unmade; and strict FM leaves blocks at their limit, where zero-gain moves out of a
// full block into a lighter one make room for the next level's positive moves. Why also before
// it: the projected partition's easy moves (where METIS runs its greedy passes) are taken and
// the blocks evened before FM searches. That pass hands its boundary list (shuffled with FM's
// seed) to FM's first pass, so the level scans and shuffles its boundary once for both.
#include <cstdint>
#include <vector>

#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {

// The move a pass makes of u, or {kInvalidBlockID, 0} for none: u's best block with room (most
// connection, then the lighter block, then the first in the row's order) where that gains, or
// gains nothing and leaves the target lighter than u's block was (constraint 0).
struct GreedyMove {
  BlockID target = kInvalidBlockID;
  Weight gain = 0;
};
GreedyMove greedy_move(const PartitionedGraph& p, const BlockLimits& limits, const GainCache& cache,
                       NodeID u);

// Up to `passes` passes (fewer once one moves nothing) under `limits`; `cache` describes p's
// partition before and is kept current. Returns the exact cut improvement (>= 0). With
// `first_list`, the first pass's boundary list (in its order) is left there. `superset`: a
// superset of p's boundary (fm_pass_seeds) for the first pass.
Weight greedy_refine(PartitionedGraph& p, const BlockLimits& limits, int passes, std::uint64_t seed,
                     GainCache& cache, std::vector<NodeID>* first_list = nullptr,
                     const std::vector<NodeID>* superset = nullptr);

} // namespace gnnpart::ml
