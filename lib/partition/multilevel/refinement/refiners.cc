#include "partition/multilevel/refinement/refiners.h"

#include <cmath>
#include <optional>
#include <vector>

#include "core/narrow_blocks.h"
#include "core/random.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/fm_refiner.h"
#include "partition/multilevel/refinement/greedy_refiner.h"
#include "partition/multilevel/refinement/kept_gain_cache.h"
#include "partition/multilevel/refinement/lp_refiner.h"
#include "partition/multilevel/refinement/rebalancer.h"

namespace gnnpart::ml {

namespace {

// FM under limits raised by `slack`, then the rebalancer; kept only if balanced and better.
// With every block near its limit, strict FM cannot take moves whose target has no room even
// when a later move would restore the balance. Needs a balanced start (else does nothing).
Weight relaxed_fm(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed, KeptGainCache* kept) {
  if (ctx.refinement.relaxed_fm_slack <= 0 || !p.balanced(limits))
    return 0;
  BlockLimits relaxed = limits;
  for (Weight& w : relaxed.max_weight)
    w += static_cast<Weight>(std::ceil(ctx.refinement.relaxed_fm_slack * static_cast<double>(w)));
  const NarrowBlocks saved(p.blocks(), p.k());
  RefinementContext relaxed_ctx = ctx.refinement;
  relaxed_ctx.fm_passes = ctx.refinement.relaxed_fm_passes;
  // Both report exact cut changes (tested), so the cut itself need not be recomputed.
  const Weight fm_gain = fm_refine(p, relaxed, relaxed_ctx, seed, kept);
  const bool greedy_after = ctx.refinement.relaxed_fm_greedy && ctx.refinement.greedy_passes > 0 &&
                            kept && kept->supports(p.graph());
  // Without the greedy pass the cache is freed: the rebalancing needs memory, and its moves would
  // leave the cache stale. With it, the rebalancer keeps the cache current for the pass.
  GainCache* cache = greedy_after ? &kept->of(p) : nullptr;
  if (kept && !greedy_after)
    kept->release();
  Weight rebalance_loss = 0;
  // The level's weight facts (KeptGainCache::supports' pass) tell the rebalancer whether the
  // cache's rows can stand for the adjacency, rather than a pass of its own over the weights.
  const std::optional<bool> positive =
      cache ? std::optional<bool>(kept->positive_edge_weights(p.graph())) : std::nullopt;
  if (rebalance(p, limits, &rebalance_loss, cache, positive) && fm_gain > rebalance_loss) {
    if (cache == nullptr)
      return fm_gain - rebalance_loss;
    const Weight greedy_gain = greedy_refine(p, limits, ctx.refinement.greedy_passes,
                                             derive_seed(seed, 45), *cache, nullptr);
    kept->matched(p);
    return fm_gain - rebalance_loss + greedy_gain;
  }
  if (cache != nullptr)
    kept->release(); // the rollback below moves behind its back
  for (NodeID u = 0; u < p.graph().num_nodes(); ++u)
    if (p.block(u) != saved[u])
      p.move(u, saved[u]);
  return 0;
}

} // namespace

Weight run_refiner(Refiner refiner, PartitionedGraph& p, const BlockLimits& limits,
                   const MultilevelContext& ctx, std::uint64_t seed, KeptGainCache* kept,
                   bool before_fm) {
  switch (refiner) {
  case Refiner::kRebalance: {
    if (kept && !p.balanced(limits))
      kept->drop_hint(); // it will move vertices
    Weight loss = 0;     // counted for the debug log only
    rebalance(p, limits, ctx.logger.enabled(LogLevel::kDebug) ? &loss : nullptr);
    return -loss;
  }
  case Refiner::kLabelPropagation:
    if (kept && ctx.refinement.lp_rounds > 0)
      kept->drop_hint();
    return ctx.refinement.lp_rounds > 0
               ? lp_refine(p, limits, ctx.refinement, derive_seed(seed, 40))
               : 0;
  case Refiner::kFm:
    return fm_refine(p, limits, ctx.refinement, derive_seed(seed, 41), kept);
  case Refiner::kRelaxedFm:
    return relaxed_fm(p, limits, ctx, derive_seed(seed, 42), kept);
  case Refiner::kGreedy: {
    // It reads every boundary vertex's connections, which only a gain cache makes cheap; graphs
    // whose total edge weight overflows the cache's 32-bit entries go without it.
    if (ctx.refinement.greedy_passes <= 0 ||
        !(kept ? kept->supports(p.graph()) : GainCache::supports(p.graph())))
      return 0;
    KeptGainCache own;
    KeptGainCache& keep = kept ? *kept : own;
    // Before FM: shuffled with FM's seed, and its boundary list is FM's first pass's seeds
    // (the vertices it made boundary are reached by FM's searches from their moved neighbours).
    const bool hand = before_fm && kept;
    const std::uint64_t greedy_seed = derive_seed(seed, hand ? 41 : 44);
    std::vector<NodeID> list;
    GainCache& cache = keep.of(p);
    const std::optional<std::vector<NodeID>> superset = keep.take_superset();
    const Weight gain = greedy_refine(p, limits, ctx.refinement.greedy_passes, greedy_seed, cache,
                                      hand ? &list : nullptr, superset ? &*superset : nullptr);
    keep.matched(p);
    if (hand)
      keep.hand_seeds(std::move(list));
    return gain;
  }
  }
  return 0;
}

void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed, std::optional<std::vector<NodeID>> boundary_superset,
                  std::optional<std::vector<std::uint8_t>>* boundary_flags) {
  Weight gain = 0;
  KeptGainCache kept; // shared by the level's FM runs
  kept.hint(std::move(boundary_superset));
  const std::vector<Refiner>& algos = ctx.refinement.algorithms;
  for (std::size_t i = 0; i < algos.size(); ++i)
    gain += run_refiner(algos[i], p, limits, ctx, seed, &kept,
                        i + 1 < algos.size() && algos[i + 1] == Refiner::kFm);
  if (boundary_flags)
    *boundary_flags = kept.boundary_flags(p);
  if (ctx.logger.enabled(LogLevel::kDebug))
    ctx.logger.debug("refine k={} n={} m={}: gain {}, cut {}", p.k(), p.graph().num_nodes(),
                     p.graph().num_edges(), gain, edge_cut(p.graph(), p.blocks()));
}

} // namespace gnnpart::ml
