#include "hypergraph/refiners.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/random.h"
#include "core/timer.h"
#include "hypergraph/block_snapshot.h"
#include "hypergraph/flow_refiner.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

// FM that may overload blocks by `slack` of their perfect weight, then the rebalancer; the
// result is kept only if it is balanced and better. With blocks near their limit, the best
// target of many vertices has no room, so strict FM cannot take moves that pay off after a
// rebalancing move elsewhere (Mt-KaHyPar's unconstrained FM follows the same idea). Needs a
// balanced start (else does nothing).
void relaxed_fm(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                std::uint64_t seed, Km1GainCache& cache) {
  if (ctx.refinement.relaxed_fm_slack <= 0 || !is_balanced(phg, limits.max_weight))
    return;
  std::vector<Weight> relaxed(limits.max_weight);
  for (std::size_t i = 0; i < relaxed.size(); ++i)
    relaxed[i] += static_cast<Weight>(
        std::ceil(ctx.refinement.relaxed_fm_slack * static_cast<double>(limits.perfect[i])));
  const BlockSnapshot saved(phg);
  const Weight before = phg.objective(ctx.objective);
  if (ctx.refinement.relaxed_fm_deciding_round) {
    fm_refine(phg, ctx, relaxed, seed, cache);
  } else {
    HgContext local = ctx;
    local.refinement.fm_deciding_round = false;
    fm_refine(phg, local, relaxed, seed, cache);
  }
  // The km1 rebalancer reads FM's cache (exact after FM) instead of recounting gains.
  const bool balanced = ctx.objective == Objective::kKm1 && cache.built_for(phg)
                            ? rebalance(phg, limits.max_weight, cache)
                            : rebalance(phg, ctx, limits.max_weight);
  if (!balanced || phg.objective(ctx.objective) >= before)
    saved.restore(phg);
}

const char* refiner_name(Refiner refiner) {
  switch (refiner) {
  case Refiner::kRebalance:
    return "rebalance";
  case Refiner::kLabelPropagation:
    return "label propagation";
  case Refiner::kFm:
    return "fm";
  case Refiner::kRelaxedFm:
    return "relaxed fm";
  case Refiner::kFlows:
    return "flows";
  }
  return "refiner";
}

} // namespace

void run_refiner(Refiner refiner, PartitionedHypergraph& phg, const HgContext& ctx,
                 const BlockLimits& limits, std::uint64_t seed, Km1GainCache& cache) {
  switch (refiner) {
  case Refiner::kRebalance:
    rebalance(phg, ctx, limits.max_weight);
    return;
  case Refiner::kLabelPropagation:
    label_propagation_refine(phg, ctx, limits.max_weight, derive_seed(seed, 1));
    return;
  case Refiner::kFm:
    fm_refine(phg, ctx, limits.max_weight, derive_seed(seed, 2), cache);
    return;
  case Refiner::kRelaxedFm:
    relaxed_fm(phg, ctx, limits, derive_seed(seed, 3), cache);
    return;
  case Refiner::kFlows:
    if (ctx.refinement.flows.enabled)
      flow_refine(phg, ctx, limits, derive_seed(seed, 4));
    return;
  }
}

bool skips_strict_fm(const RefinementContext& rc, double growth, BlockID k) {
  return k > 2 && growth > 0 && growth <= rc.strict_fm_skip_max_growth && rc.relaxed_fm_slack > 0 &&
         std::ranges::find(rc.algorithms, Refiner::kRelaxedFm) != rc.algorithms.end();
}

bool finer_level_decides(const RefinementContext& rc, double finer_growth) {
  return finer_growth > 0 && finer_growth <= rc.fm_deciding_round_skip_max_growth;
}

void refine_level(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                  std::uint64_t seed, Km1GainCache& cache, double growth, double finer_growth) {
  const bool skip_fm = skips_strict_fm(ctx.refinement, growth, phg.k());
  // FM leaves its deciding round to the finer level's first round (fm_deciding_round).
  HgContext local;
  const bool deferred = finer_level_decides(ctx.refinement, finer_growth);
  if (deferred) {
    local = ctx;
    local.refinement.fm_deciding_round = false;
  }
  const HgContext& level_ctx = deferred ? local : ctx;
  for (const Refiner refiner : level_ctx.refinement.algorithms) {
    if (skip_fm && refiner == Refiner::kFm)
      continue;
    const auto phase = scoped_phase(level_ctx.timer, refiner_name(refiner));
    run_refiner(refiner, phg, level_ctx, limits, seed, cache);
  }
}

} // namespace gnnpart::hg
