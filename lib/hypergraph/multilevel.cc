#include "hypergraph/multilevel.h"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_invoke.h>

#include "core/random.h"
#include "hypergraph/clustering.h"
#include "hypergraph/contraction.h"
#include "hypergraph/flow_refiner.h"
#include "hypergraph/initial_bisection.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph/subhypergraph.h"

namespace gnnpart {

namespace {

// FM that may overload blocks by `slack` of their perfect weight, then the rebalancer; the
// result is kept only if it is balanced and better. With blocks near their limit, the best
// target of many vertices has no room, so strict FM cannot take moves that pay off after a
// rebalancing move elsewhere (Mt-KaHyPar's unconstrained FM follows the same idea).
void relaxed_fm(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                std::uint64_t seed, Km1GainCache& cache) {
  std::vector<Weight> relaxed(limits.max_weight);
  for (std::size_t i = 0; i < relaxed.size(); ++i)
    relaxed[i] += static_cast<Weight>(
        std::ceil(ctx.refinement.relaxed_fm_slack * static_cast<double>(limits.perfect[i])));
  const std::vector<BlockID> saved(phg.blocks().begin(), phg.blocks().end());
  const Weight before = phg.objective(ctx.objective);
  fm_refine(phg, ctx, relaxed, seed, cache);
  if (!rebalance(phg, ctx, limits.max_weight) || phg.objective(ctx.objective) >= before)
    phg.assign(saved);
}

} // namespace

void refine_level(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits,
                  std::uint64_t seed, Km1GainCache& cache) {
  rebalance(phg, ctx, limits.max_weight);
  label_propagation_refine(phg, ctx, limits.max_weight, derive_seed(seed, 1));
  fm_refine(phg, ctx, limits.max_weight, derive_seed(seed, 2), cache);
  rebalance(phg, ctx, limits.max_weight);
  if (ctx.refinement.relaxed_fm_slack > 0 && is_balanced(phg, limits.max_weight))
    relaxed_fm(phg, ctx, limits, derive_seed(seed, 3), cache);
  if (ctx.refinement.flows.enabled)
    flow_refine(phg, ctx, limits, derive_seed(seed, 4));
}

namespace {

// Coarsen (within the blocks of `given` if not empty), partition the coarsest level (or project
// `given` onto it), then project and refine level by level.
std::vector<BlockID> multilevel_cycle(const Hypergraph& hg, const HgContext& ctx,
                                      const BlockLimits& limits, std::uint64_t seed,
                                      std::span<const BlockID> given, Km1GainCache& cache) {
  const BlockID k = limits.k;
  if (k == 1 || hg.num_nodes() == 0)
    return std::vector<BlockID>(hg.num_nodes(), 0);
  const NodeID limit = ctx.coarsening.contraction_limit_multiplier * k;
  const auto total = vertex_weight_totals(hg);
  std::vector<Weight> max_cluster(total.size());
  for (std::size_t c = 0; c < total.size(); ++c) {
    Weight smallest_block = limits.perfect[c];
    for (BlockID b = 0; b < k; ++b)
      smallest_block =
          std::min(smallest_block, limits.perfect[static_cast<std::size_t>(b) * limits.ncon + c]);
    max_cluster[c] =
        std::max<Weight>(1, std::min<Weight>((total[c] + limit - 1) / limit, smallest_block));
  }

  // Coarsening.
  std::vector<Hypergraph> levels;
  std::vector<std::vector<NodeID>> maps;
  const Hypergraph* current = &hg;
  std::vector<BlockID> communities(given.begin(), given.end());
  for (int level = 0; current->num_nodes() > limit; ++level) {
    const NodeID n = current->num_nodes();
    const NodeID target =
        std::max<NodeID>(limit, static_cast<NodeID>(n / ctx.coarsening.max_shrink_per_pass));
    NodeID clusters = 0;
    std::vector<NodeID> map =
        compute_clustering(*current, ctx.coarsening, max_cluster, target,
                           derive_seed(seed, 0xC0, level), &clusters, communities);
    if (static_cast<double>(clusters) * ctx.coarsening.min_shrink_per_pass > n)
      break;
    if (!communities.empty()) {
      std::vector<BlockID> coarse(clusters);
      for (NodeID u = 0; u < n; ++u)
        coarse[map[u]] = communities[u];
      communities = std::move(coarse);
    }
    levels.push_back(contract(*current, map, clusters));
    maps.push_back(std::move(map));
    current = &levels.back();
  }

  // Initial partition of the coarsest level.
  std::vector<BlockID> blocks =
      !communities.empty() ? std::move(communities)
      : k == 2             ? flat_bisection(*current, ctx, limits, derive_seed(seed, 0x1F))
                           : recursive_bipartition(*current, ctx, limits, derive_seed(seed, 0x1F));

  // Uncoarsening with refinement on every level.
  for (std::size_t i = levels.size() + 1; i-- > 0;) {
    const Hypergraph& level = i == 0 ? hg : levels[i - 1];
    if (i < levels.size()) {
      const std::vector<NodeID>& map = maps[i];
      std::vector<BlockID> fine(level.num_nodes());
      for (NodeID u = 0; u < level.num_nodes(); ++u)
        fine[u] = blocks[map[u]];
      blocks = std::move(fine);
      // Level i + 1 (levels[i]) and its map are no longer needed.
      levels.resize(i);
      maps.resize(i);
    }
    PartitionedHypergraph phg(level, k);
    phg.assign(blocks);
    refine_level(phg, ctx, limits, derive_seed(seed, 0xF0, i), cache);
    blocks.assign(phg.blocks().begin(), phg.blocks().end());
  }
  return blocks;
}

} // namespace

std::vector<BlockID> multilevel_partition(const Hypergraph& hg, const HgContext& ctx,
                                          const BlockLimits& limits, std::uint64_t seed,
                                          Km1GainCache& cache) {
  return multilevel_cycle(hg, ctx, limits, seed, {}, cache);
}

std::vector<BlockID> vcycle(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                            std::vector<BlockID> blocks, std::uint64_t seed, Km1GainCache& cache) {
  HgContext local = ctx;
  local.refinement.lp_rounds = ctx.refinement.vcycle_lp_rounds;
  return multilevel_cycle(hg, local, limits, seed, blocks, cache);
}

int graph_start_vcycles(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                        std::vector<BlockID>& blocks, Km1GainCache& cache) {
  const RefinementContext& rc = ctx.refinement;
  auto objective = [&] {
    PartitionedHypergraph phg(hg, limits.k);
    phg.assign(blocks);
    return static_cast<double>(phg.objective(ctx.objective));
  };
  int vcycles = rc.graph_start_vcycles;
  double before = -1; // objective before the current V-cycle, once needed
  for (int v = 0; v < vcycles; ++v) {
    const bool may_extend = v + 1 == vcycles && vcycles < rc.graph_start_max_vcycles;
    if (may_extend && before < 0)
      before = objective();
    blocks = vcycle(hg, ctx, limits, std::move(blocks), derive_seed(ctx.seed, 0x5C, v), cache);
    if (!may_extend)
      continue;
    const double after = objective();
    if (before >= rc.graph_start_extra_vcycle_factor * after)
      ++vcycles;
    before = after;
  }
  return vcycles;
}

namespace {

std::vector<BlockID> bipartition_recursively(const Hypergraph& hg, const HgContext& ctx,
                                             const BlockLimits& limits, std::uint64_t seed,
                                             int depth) {
  const BlockID k = limits.k;
  const NodeID n = hg.num_nodes();
  if (k == 1 || n == 0)
    return std::vector<BlockID>(n, 0);
  // Bisections deep in the recursion are many and small: they get fewer initial tries.
  HgContext local = ctx;
  if (depth >= ctx.initial.full_runs_depth)
    local.initial.runs_per_algorithm = ctx.initial.deep_runs_per_algorithm;
  local.refinement.flows.enabled =
      ctx.refinement.flows.enabled && ctx.refinement.flows.in_initial_partitioning;
  const BlockID k0 = (k + 1) / 2;
  const BlockLimits bis = bisection_limits(hg, limits, k0);
  Km1GainCache cache; // bisections run in parallel, each with its own
  std::vector<BlockID> sides = multilevel_partition(hg, local, bis, derive_seed(seed, 0xB1), cache);
  std::vector<BlockID> blocks(n, 0);
  if (k == 2)
    return sides;
  std::vector<BlockID> result[2];
  SubHypergraph sub[2];
  const BlockID first[2] = {0, k0};
  const BlockID count[2] = {k0, k - k0};
  auto solve = [&](int s) {
    sub[s] = extract_block(hg, sides, static_cast<BlockID>(s), ctx.objective);
    if (sub[s].original.empty())
      return;
    result[s] =
        bipartition_recursively(sub[s].hypergraph, ctx, sub_limits(limits, first[s], count[s]),
                                derive_seed(seed, 0xB2, s), depth + 1);
  };
  tbb::parallel_invoke([&] { solve(0); }, [&] { solve(1); });
  for (int s = 0; s < 2; ++s)
    for (std::size_t v = 0; v < sub[s].original.size(); ++v)
      blocks[sub[s].original[v]] = first[s] + result[s][v];
  return blocks;
}

} // namespace

std::vector<BlockID> recursive_bipartition(const Hypergraph& hg, const HgContext& ctx,
                                           const BlockLimits& limits, std::uint64_t seed) {
  return bipartition_recursively(hg, ctx, limits, seed, 0);
}

} // namespace gnnpart
