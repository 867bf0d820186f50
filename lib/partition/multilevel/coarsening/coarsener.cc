#include "partition/multilevel/coarsening/coarsener.h"

#include <algorithm>
#include <cmath>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "partition/multilevel/coarsening/contraction.h"
#include "partition/multilevel/coarsening/lp_clustering.h"
#include "partition/multilevel/coarsening/matching.h"

namespace gnnpart::ml {
namespace {

// Labels of the coarse vertices (fixed blocks or communities): each takes the label of its
// members, which agree (empty in, empty out; unlabelled entries stay kInvalidBlockID).
std::vector<BlockID> coarse_labels(std::span<const BlockID> fine, std::span<const NodeID> mapping,
                                   NodeID nc) {
  if (fine.empty())
    return {};
  std::vector<BlockID> coarse(nc, kInvalidBlockID);
  for (std::size_t u = 0; u < fine.size(); ++u)
    if (fine[u] != kInvalidBlockID)
      coarse[mapping[u]] = fine[u];
  return coarse;
}

} // namespace

ClusteringAlgorithm resolve_clustering(const CsrGraph& graph, const CoarseningContext& ctx) {
  if (ctx.algorithm != ClusteringAlgorithm::kAuto)
    return ctx.algorithm;
  std::uint64_t hub_arcs = 0;
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    if (graph.degree(u) > ctx.matching_max_degree)
      hub_arcs += graph.degree(u);
  const double arcs = 2.0 * static_cast<double>(graph.num_edges());
  return static_cast<double>(hub_arcs) > ctx.matching_max_hub_share * arcs
             ? ClusteringAlgorithm::kLabelPropagation
             : ClusteringAlgorithm::kMatching;
}

Hierarchy coarsen(const CsrGraph& graph, BlockID k, double epsilon, const CoarseningContext& ctx,
                  std::uint64_t seed, std::span<const BlockID> fixed,
                  std::span<const BlockID> communities, BlockID stop_k) {
  Hierarchy hierarchy{&graph, fixed, {}};
  std::vector<CoarseLevel>& levels = hierarchy.levels;
  const NodeID limit = ctx.contraction_limit * std::max<BlockID>(stop_k == 0 ? k : stop_k, 2);
  const int ncon = graph.ncon();
  std::vector<Weight> totals(ncon);
  for (int c = 0; c < ncon; ++c)
    totals[c] = graph.total_vertex_weight(c);
  const double eps = std::max(epsilon, 0.01);
  const bool matching = resolve_clustering(graph, ctx) == ClusteringAlgorithm::kMatching;

  for (int level = 0; level < ctx.max_levels; ++level) {
    const CsrGraph& current = levels.empty() ? graph : levels.back().graph;
    const std::span<const BlockID> current_fixed =
        levels.empty() ? fixed : std::span<const BlockID>(levels.back().fixed);
    const std::span<const BlockID> current_communities =
        levels.empty() ? communities : std::span<const BlockID>(levels.back().communities);
    const NodeID n = current.num_nodes();
    if (n <= limit)
      break;
    // KaMinPar's bound: eps * W / k' with k' = clamp(n / C, 2, k); METIS's factor * W / (C * k)
    // where that is larger. Coarsening past C * k (stop_k < k, deep multilevel) takes k'' =
    // clamp(n / (2 C), 2, k) there instead of k: factor times the mean weight of a level half
    // this one's size, so that a level can still halve, where clusters of the top level's
    // factor * W / (C * k) would stall at C * k vertices.
    const double k_prime = std::clamp<double>(static_cast<double>(n) / ctx.contraction_limit, 2.0,
                                              std::max<double>(k, 2));
    const double factor_blocks =
        stop_k == 0 ? std::max<double>(k, 2)
                    : std::clamp<double>(static_cast<double>(n) / (2.0 * ctx.contraction_limit),
                                         2.0, std::max<double>(k, 2));
    std::vector<Weight> max_weight(ncon);
    for (int c = 0; c < ncon; ++c) {
      const auto total = static_cast<double>(totals[c]);
      max_weight[c] = std::max<Weight>(
          1, static_cast<Weight>(
                 std::max(eps * total / k_prime, ctx.cluster_weight_factor * total /
                                                     (ctx.contraction_limit * factor_blocks))));
    }
    const std::uint64_t level_seed = derive_seed(seed, 10, level);
    std::vector<NodeID> clusters = matching
                                       ? heavy_edge_matching(current, max_weight, ctx, level_seed,
                                                             current_fixed, current_communities)
                                       : lp_clustering(current, max_weight, ctx, level_seed,
                                                       current_fixed, current_communities);
    Contraction contraction =
        matching ? contract_pairs(current, clusters) : contract_clustering(current, clusters);
    const NodeID nc = contraction.coarse.num_nodes();
    if (static_cast<double>(nc) > (1.0 - ctx.min_shrink) * n)
      break;
    std::vector<BlockID> coarse_fixed = coarse_labels(current_fixed, contraction.mapping, nc);
    std::vector<BlockID> coarse_communities =
        coarse_labels(current_communities, contraction.mapping, nc);
    levels.push_back({std::move(contraction.coarse), std::move(contraction.mapping),
                      std::move(coarse_fixed), std::move(coarse_communities)});
  }
  return hierarchy;
}

std::vector<NodeID> project_flags(const Hierarchy& h, std::size_t level,
                                  std::span<const std::uint8_t> flags) {
  const std::vector<NodeID>& mapping = h.levels[level - 1].mapping;
  const NodeID* const map = mapping.data();
  const std::uint8_t* const flag = flags.data();
  const auto n = static_cast<NodeID>(mapping.size());
  std::vector<NodeID> out(n);
  NodeID count = 0;
  for (NodeID u = 0; u < n; ++u) { // written without a branch per vertex
    out[count] = u;
    count += flag[map[u]];
  }
  out.resize(count);
  return out;
}

std::vector<BlockID> project_and_free(Hierarchy& h, std::size_t level,
                                      std::span<const BlockID> blocks) {
  std::vector<BlockID> finer = project_partition(h.levels[level - 1].mapping, blocks);
  h.levels[level - 1] = CoarseLevel();
  return finer;
}

} // namespace gnnpart::ml
