#pragma once
// The refinement of one level: the refiners ctx.refinement.algorithms names, in that order.
#include <cstdint>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Runs one refiner; returns the cut it gained (negative: lost). Each refiner's seed is derived
// from `seed` and its kind. The factory: a new refiner is one case here and one enum value.
Weight run_refiner(Refiner refiner, PartitionedGraph& p, const BlockLimits& limits,
                   const MultilevelContext& ctx, std::uint64_t seed);

// Every refiner of ctx.refinement.algorithms on one level.
void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed);

} // namespace gnnpart::ml
