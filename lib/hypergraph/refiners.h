#pragma once
// The refinement of one level of the hypergraph engine: the refiners ctx.refinement.algorithms
// names, in that order.
#include <cstdint>

#include "core/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// Runs one refiner. Each refiner's seed is derived from `seed` and its kind. The factory: a new
// refiner is one case here and one enum value (context.h).
void run_refiner(Refiner refiner, PartitionedHypergraph& phg, const HgContext& ctx,
                 const BlockLimits& limits, std::uint64_t seed, Km1GainCache& cache);

// Every refiner of ctx.refinement.algorithms on one level. `growth`: the level's vertices per
// vertex of the coarser level it was projected from (0 for a level without one);
// `finer_growth`: the finer level's vertices per vertex of this one (0 for the input level).
void refine_level(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                  std::uint64_t seed, Km1GainCache& cache, double growth = 0,
                  double finer_growth = 0);

// True when refine_level skips strict FM on a level of this growth partitioned into k blocks
// (RefinementContext::strict_fm_skip_max_growth).
bool skips_strict_fm(const RefinementContext& rc, double growth, BlockID k);

// True when FM on a level with this finer growth runs without its deciding round
// (RefinementContext::fm_deciding_round_skip_max_growth).
bool finer_level_decides(const RefinementContext& rc, double finer_growth);

} // namespace gnnpart::hg
