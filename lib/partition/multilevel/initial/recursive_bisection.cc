#include "partition/multilevel/initial/recursive_bisection.h"

#include <algorithm>
#include <cmath>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "partition/multilevel/multilevel.h"
#include "partition/multilevel/subgraph.h"

namespace gnnpart::ml {

std::vector<BlockID> bisect_for_blocks(const CsrGraph& graph, BlockID k,
                                       std::span<const Weight> final_max,
                                       const MultilevelContext& ctx, std::uint64_t seed) {
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
  level_ctx.timer = nullptr; // bisections below run in parallel
  if (4 * static_cast<std::uint64_t>(k) <= ctx.k)
    level_ctx.initial.tries = std::min(ctx.initial.tries, ctx.initial.deep_tries);
  return multilevel_partition(graph, limits, min_eps, static_cast<double>(k0) / k, level_ctx,
                              derive_seed(seed, 70));
}

namespace {

// recursive_bisection of `graph`; when `owned` is given it is `graph` itself, a subgraph no one
// else reads, freed once its two sides are extracted. Each subgraph used to stay alive until its
// whole subtree was solved, so every ancestor of the subgraph being split was resident: on
// cornell5 k = 128 (a coarsest graph of 4,449 vertices and 460,801 edges, 12 bytes an arc) the
// initial partitioning peaked 17.7 MB above its start, now 11.0 MB (docs/hypergraph.md,
// "Memory", fifteenth pass). The same subgraphs are split with the same seeds.
std::vector<BlockID> split(const CsrGraph& graph, CsrGraph* owned, BlockID k,
                           std::span<const Weight> final_max, const MultilevelContext& ctx,
                           std::uint64_t seed) {
  const NodeID n = graph.num_nodes();
  if (k == 1 || n == 0)
    return std::vector<BlockID>(n, 0);
  const BlockID k0 = (k + 1) / 2;
  const BlockID k1 = k / 2;
  std::vector<BlockID> sides = bisect_for_blocks(graph, k, final_max, ctx, seed);
  if (k == 2)
    return sides;

  std::vector<Subgraph> parts = extract_block_subgraphs(graph, sides, 2);
  sides = {};
  if (owned != nullptr)
    *owned = CsrGraph();
  return merge_bisection(n, k0, [&](int s) {
    CsrGraph part = std::move(parts[s].graph);
    return SolvedSide{std::move(parts[s].nodes), split(part, &part, s == 0 ? k0 : k1, final_max,
                                                       ctx, derive_seed(seed, 71 + s))};
  });
}

} // namespace

std::vector<BlockID> recursive_bisection(const CsrGraph& graph, BlockID k,
                                         std::span<const Weight> final_max,
                                         const MultilevelContext& ctx, std::uint64_t seed) {
  return split(graph, nullptr, k, final_max, ctx, seed);
}

} // namespace gnnpart::ml
