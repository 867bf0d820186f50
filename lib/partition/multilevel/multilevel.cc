#include "partition/multilevel/multilevel.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "core/random.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/initial/bisection.h"
#include "partition/multilevel/initial/fixed_growing.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/fm_refiner.h"
#include "partition/multilevel/refinement/lp_refiner.h"
#include "partition/multilevel/refinement/rebalancer.h"
#include "partition/multilevel/subgraph.h"

namespace gnnpart::ml {

namespace {

// FM under limits raised by `slack`, then the rebalancer; kept only if balanced and better.
// With every block near its limit, strict FM cannot take moves whose target has no room even
// when a later move would restore the balance.
void relaxed_fm(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                std::uint64_t seed) {
  BlockLimits relaxed = limits;
  for (Weight& w : relaxed.max_weight)
    w += static_cast<Weight>(std::ceil(ctx.refinement.relaxed_fm_slack * static_cast<double>(w)));
  const std::vector<BlockID> saved(p.blocks().begin(), p.blocks().end());
  RefinementContext relaxed_ctx = ctx.refinement;
  relaxed_ctx.fm_passes = ctx.refinement.relaxed_fm_passes;
  // Both report exact cut changes (tested), so the cut itself need not be recomputed.
  const Weight fm_gain = fm_refine(p, relaxed, relaxed_ctx, seed);
  Weight rebalance_loss = 0;
  if (rebalance(p, limits, &rebalance_loss) && fm_gain > rebalance_loss)
    return;
  for (NodeID u = 0; u < p.graph().num_nodes(); ++u)
    if (p.block(u) != saved[u])
      p.move(u, saved[u]);
}

} // namespace

void refine_level(PartitionedGraph& p, const BlockLimits& limits, const MultilevelContext& ctx,
                  std::uint64_t seed) {
  rebalance(p, limits);
  const Weight lp_gain = ctx.refinement.lp_rounds > 0
                             ? lp_refine(p, limits, ctx.refinement, derive_seed(seed, 40))
                             : 0;
  const Weight fm_gain =
      ctx.refinement.fm ? fm_refine(p, limits, ctx.refinement, derive_seed(seed, 41)) : 0;
  rebalance(p, limits);
  if (ctx.refinement.fm && ctx.refinement.relaxed_fm_slack > 0 && p.balanced(limits))
    relaxed_fm(p, limits, ctx, derive_seed(seed, 42));
  if (ctx.logger.enabled(LogLevel::kDebug))
    ctx.logger.debug("refine k={} n={} m={}: lp gain {}, fm gain {}, cut {}", p.k(),
                     p.graph().num_nodes(), p.graph().num_edges(), lp_gain, fm_gain,
                     edge_cut(p.graph(), p.blocks()));
}

std::vector<BlockID> multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                          double epsilon, double fraction0,
                                          const MultilevelContext& ctx, std::uint64_t seed,
                                          std::span<const BlockID> fixed,
                                          std::span<const BlockID> start) {
  const BlockID k = limits.k;
  const NodeID n = graph.num_nodes();
  if (k == 1 || n == 0)
    return std::vector<BlockID>(n, 0);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<CoarseLevel> levels =
      coarsen(graph, k, epsilon, ctx.coarsening, seed, fixed, start);
  const auto t1 = std::chrono::steady_clock::now();
  const CsrGraph& coarsest = levels.empty() ? graph : levels.back().graph;
  auto fixed_of = [&](std::size_t level) {
    return level == 0 ? fixed : std::span<const BlockID>(levels[level - 1].fixed);
  };

  std::vector<BlockID> blocks;
  if (!start.empty()) {
    // V-cycle: the coarsest vertices lie within blocks of `start`, which is their partition.
    blocks = levels.empty() ? std::vector<BlockID>(start.begin(), start.end())
                            : std::move(levels.back().communities);
  } else if (k == 2) {
    blocks = initial_bisection(coarsest, limits, fraction0, ctx.initial, derive_seed(seed, 50));
  } else {
    std::vector<Weight> final_max(graph.ncon());
    for (int c = 0; c < graph.ncon(); ++c)
      final_max[c] = limits.max(0, c);
    blocks = recursive_bisection(coarsest, k, final_max, ctx, derive_seed(seed, 51));
  }
  if (!fixed.empty() && start.empty()) {
    // Two starts for the pins: the free partition renamed to agree with them, and blocks grown
    // from them. The one with the lower cut after refinement on the coarsest graph wins.
    const std::span<const BlockID> coarsest_fixed = fixed_of(levels.size());
    align_to_fixed(coarsest, k, coarsest_fixed, blocks);
    const std::uint64_t coarsest_seed = derive_seed(seed, 60, levels.size());
    PartitionedGraph renamed(coarsest, k, std::move(blocks));
    renamed.fix(coarsest_fixed);
    refine_level(renamed, limits, ctx, coarsest_seed);
    PartitionedGraph grown(coarsest, k, grow_from_fixed(coarsest, limits, coarsest_fixed));
    grown.fix(coarsest_fixed);
    refine_level(grown, limits, ctx, coarsest_seed);
    const bool grown_wins =
        (grown.balanced(limits) && !renamed.balanced(limits)) ||
        (grown.balanced(limits) == renamed.balanced(limits) &&
         edge_cut(coarsest, grown.blocks()) < edge_cut(coarsest, renamed.blocks()));
    blocks = grown_wins ? grown.take_blocks() : renamed.take_blocks();
  }

  const auto t2 = std::chrono::steady_clock::now();
  for (std::size_t level = levels.size() + 1; level-- > 0;) {
    const CsrGraph& current = level == 0 ? graph : levels[level - 1].graph;
    PartitionedGraph p(current, k, std::move(blocks));
    p.fix(fixed_of(level));
    refine_level(p, limits, ctx, derive_seed(seed, 60, level));
    blocks = p.take_blocks();
    if (level == 0)
      break;
    // Project onto the next finer graph.
    const auto& mapping = levels[level - 1].mapping;
    std::vector<BlockID> finer(mapping.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mapping.size(), 4096), [&](const auto& r) {
      for (std::size_t u = r.begin(); u != r.end(); ++u)
        finer[u] = blocks[mapping[u]];
    });
    blocks = std::move(finer);
    levels[level - 1].graph = CsrGraph();
  }
  if (ctx.logger.enabled(LogLevel::kDebug)) {
    const auto t3 = std::chrono::steady_clock::now();
    auto ms = [](auto a, auto b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    ctx.logger.debug("multilevel k={} n={}: {} levels, coarsen {:.1f} ms, initial {:.1f} ms, "
                     "uncoarsen {:.1f} ms",
                     k, n, levels.size(), ms(t0, t1), ms(t1, t2), ms(t2, t3));
  }
  return blocks;
}

void align_to_fixed(const CsrGraph& graph, BlockID k, std::span<const BlockID> fixed,
                    std::vector<BlockID>& blocks) {
  std::vector<NodeID> pinned;
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    if (fixed[u] != kInvalidBlockID)
      pinned.push_back(u);
  std::stable_sort(pinned.begin(), pinned.end(), [&](NodeID a, NodeID b) {
    return graph.vertex_weight(a) > graph.vertex_weight(b);
  });
  std::vector<BlockID> rename(k, kInvalidBlockID);
  std::vector<bool> used(k, false);
  for (const NodeID u : pinned) {
    if (rename[blocks[u]] == kInvalidBlockID && !used[fixed[u]]) {
      rename[blocks[u]] = fixed[u];
      used[fixed[u]] = true;
    }
  }
  BlockID next = 0;
  for (BlockID b = 0; b < k; ++b) {
    if (rename[b] != kInvalidBlockID)
      continue;
    while (used[next])
      ++next;
    rename[b] = next;
    used[next] = true;
  }
  for (BlockID& b : blocks)
    b = rename[b];
  for (const NodeID u : pinned)
    blocks[u] = fixed[u];
}

std::vector<BlockID> recursive_bisection(const CsrGraph& graph, BlockID k,
                                         std::span<const Weight> final_max,
                                         const MultilevelContext& ctx, std::uint64_t seed) {
  const NodeID n = graph.num_nodes();
  if (k == 1 || n == 0)
    return std::vector<BlockID>(n, 0);
  const int ncon = graph.ncon();
  const BlockID k0 = (k + 1) / 2;
  const BlockID k1 = k / 2;
  const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(k))));
  BlockLimits limits;
  limits.k = 2;
  limits.ncon = ncon;
  limits.max_weight.assign(2 * static_cast<std::size_t>(ncon), 0);
  double min_eps = 1.0;
  for (int c = 0; c < ncon; ++c) {
    const Weight total = graph.total_vertex_weight(c);
    if (total == 0)
      continue;
    // Leave each bisection level its share of the final slack (KaHyPar's adaptive epsilon).
    const double ratio = static_cast<double>(final_max[c]) * k / static_cast<double>(total);
    const double eps = ratio > 1.0 ? std::pow(ratio, 1.0 / depth) - 1.0 : 0.0;
    min_eps = std::min(min_eps, eps);
    for (BlockID s = 0; s < 2; ++s) {
      const BlockID ks = s == 0 ? k0 : k1;
      const double perfect = static_cast<double>(total) * ks / k;
      Weight bound = static_cast<Weight>(std::floor((1.0 + eps) * perfect + 1e-9));
      bound = std::min(bound, final_max[c] * static_cast<Weight>(ks));
      bound = std::max(bound, static_cast<Weight>(std::ceil(perfect - 1e-9)));
      limits.max_weight[static_cast<std::size_t>(s) * ncon + c] = bound;
    }
  }
  // The top two levels shape every block; below them the subproblems are many (k - 1
  // bisections in all) and each covers few blocks, so they get fewer initial tries.
  MultilevelContext level_ctx = ctx;
  if (4 * static_cast<std::uint64_t>(k) <= ctx.k)
    level_ctx.initial.tries = std::min(ctx.initial.tries, ctx.initial.deep_tries);
  std::vector<BlockID> sides = multilevel_partition(
      graph, limits, min_eps, static_cast<double>(k0) / k, level_ctx, derive_seed(seed, 70));
  if (k == 2)
    return sides;

  std::vector<Subgraph> parts = extract_block_subgraphs(graph, sides, 2);
  std::vector<BlockID> sub[2];
  tbb::parallel_invoke(
      [&] {
        sub[0] = recursive_bisection(parts[0].graph, k0, final_max, ctx, derive_seed(seed, 71));
      },
      [&] {
        sub[1] = recursive_bisection(parts[1].graph, k1, final_max, ctx, derive_seed(seed, 72));
      });
  std::vector<BlockID> blocks(n);
  for (BlockID s = 0; s < 2; ++s)
    for (std::size_t i = 0; i < parts[s].nodes.size(); ++i)
      blocks[parts[s].nodes[i]] = sub[s][i] + (s == 0 ? 0 : k0);
  return blocks;
}

} // namespace gnnpart::ml
