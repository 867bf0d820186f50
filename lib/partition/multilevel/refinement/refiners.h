#pragma once
// The refinement of one level: the refiners ctx.refinement.algorithms names, in that order.
#include <cstdint>

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

// Every refiner of ctx.refinement.algorithms on one level.
void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed);

} // namespace gnnpart::ml
