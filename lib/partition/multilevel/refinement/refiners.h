#pragma once
// The refinement of one level: the refiners ctx.refinement.algorithms names, in that order.
#include <cstdint>
#include <optional>
#include <vector>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

class KeptGainCache;

// Runs one refiner; returns the cut it gained (negative: lost). Each refiner's seed is derived
// from `seed` and its kind. The factory: a new refiner is one case here and one enum value.
// `kept`: the gain cache the level's FM runs share (kept_gain_cache.h; null: each builds one).
// `before_fm`: strict FM runs next (a greedy pass then hands it its boundary list, via `kept`).
Weight run_refiner(Refiner refiner, PartitionedGraph& p, const BlockLimits& limits,
                   const MultilevelContext& ctx, std::uint64_t seed, KeptGainCache* kept = nullptr,
                   bool before_fm = false);

// Every refiner of ctx.refinement.algorithms on one level. `boundary_superset`: vertices in
// increasing order outside which none of p's vertices has a neighbour in another block
// (boundary_candidates), or nullopt. With `boundary_flags`, it receives the refined partition's
// boundary (KeptGainCache::boundary_flags) for the next finer level's superset, or nullopt.
void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed, std::optional<std::vector<NodeID>> boundary_superset = {},
                  std::optional<std::vector<std::uint8_t>>* boundary_flags = nullptr);

} // namespace gnnpart::ml
