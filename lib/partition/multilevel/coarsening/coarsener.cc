#include "partition/multilevel/coarsening/coarsener.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"
#include "partition/multilevel/coarsening/contraction.h"
#include "partition/multilevel/coarsening/lp_clustering.h"

namespace gnnpart::ml {

std::vector<CoarseLevel> coarsen(const CsrGraph& graph, BlockID k, double epsilon,
                                 const CoarseningContext& ctx, std::uint64_t seed,
                                 std::span<const BlockID> fixed,
                                 std::span<const BlockID> communities) {
  std::vector<CoarseLevel> levels;
  const NodeID limit = ctx.contraction_limit * std::max<BlockID>(k, 2);
  const int ncon = graph.ncon();
  std::vector<Weight> totals(ncon);
  for (int c = 0; c < ncon; ++c)
    totals[c] = graph.total_vertex_weight(c);
  const double eps = std::max(epsilon, 0.01);

  for (int level = 0; level < ctx.max_levels; ++level) {
    const CsrGraph& current = levels.empty() ? graph : levels.back().graph;
    const std::span<const BlockID> current_fixed =
        levels.empty() ? fixed : std::span<const BlockID>(levels.back().fixed);
    const std::span<const BlockID> current_communities =
        levels.empty() ? communities : std::span<const BlockID>(levels.back().communities);
    const NodeID n = current.num_nodes();
    if (n <= limit)
      break;
    // KaMinPar's bound: eps * W / k' with k' = clamp(n / C, 2, k).
    const double k_prime = std::clamp<double>(static_cast<double>(n) / ctx.contraction_limit, 2.0,
                                              std::max<double>(k, 2));
    std::vector<Weight> max_weight(ncon);
    for (int c = 0; c < ncon; ++c)
      max_weight[c] =
          std::max<Weight>(1, static_cast<Weight>(eps * static_cast<double>(totals[c]) / k_prime));
    std::vector<NodeID> clusters =
        lp_clustering(current, max_weight, ctx, derive_seed(seed, 10, level), current_fixed,
                      current_communities);
    Contraction contraction = contract_clustering(current, clusters);
    const NodeID nc = contraction.coarse.num_nodes();
    if (static_cast<double>(nc) > (1.0 - ctx.min_shrink) * n)
      break;
    std::vector<BlockID> coarse_fixed;
    if (!current_fixed.empty()) {
      coarse_fixed.assign(nc, kInvalidBlockID);
      for (NodeID u = 0; u < n; ++u)
        if (current_fixed[u] != kInvalidBlockID)
          coarse_fixed[contraction.mapping[u]] = current_fixed[u];
    }
    std::vector<BlockID> coarse_communities;
    if (!current_communities.empty()) {
      coarse_communities.resize(nc);
      for (NodeID u = 0; u < n; ++u)
        coarse_communities[contraction.mapping[u]] = current_communities[u];
    }
    levels.push_back({std::move(contraction.coarse), std::move(contraction.mapping),
                      std::move(coarse_fixed), std::move(coarse_communities)});
  }
  return levels;
}

} // namespace gnnpart::ml
