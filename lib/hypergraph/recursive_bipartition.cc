#include "hypergraph/recursive_bipartition.h"

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/subhypergraph.h"

namespace gnnpart::hg {

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
  local.timer = nullptr; // bisections below run in parallel
  local.coarsening.stalled_deep_multiplier = 0;
  if (depth >= ctx.initial.full_runs_depth)
    local.initial.runs_per_algorithm = ctx.initial.deep_runs_per_algorithm;
  local.refinement.flows.enabled =
      ctx.refinement.flows.enabled && ctx.refinement.flows.in_initial_partitioning;
  const BlockID k0 = (k + 1) / 2;
  const BlockLimits bis = bisection_limits(hg, limits, k0);
  Km1GainCache cache; // bisections run in parallel, each with its own
  std::vector<BlockID> sides = multilevel_partition(hg, local, bis, derive_seed(seed, 0xB1), cache);
  if (k == 2)
    return sides;
  return merge_bisection(n, k0, [&](int s) {
    SubHypergraph sub = extract_block(hg, sides, static_cast<BlockID>(s), ctx.objective);
    if (sub.original.empty())
      return SolvedSide{};
    const BlockLimits side_limits = s == 0 ? sub_limits(limits, 0, k0)
                                           : sub_limits(limits, k0, k - k0);
    std::vector<BlockID> blocks = bipartition_recursively(
        sub.hypergraph, ctx, side_limits, derive_seed(seed, 0xB2, s), depth + 1);
    return SolvedSide{std::move(sub.original), std::move(blocks)};
  });
}

} // namespace

std::vector<BlockID> recursive_bipartition(const Hypergraph& hg, const HgContext& ctx,
                                           const BlockLimits& limits, std::uint64_t seed) {
  return bipartition_recursively(hg, ctx, limits, seed, 0);
}

} // namespace gnnpart::hg
