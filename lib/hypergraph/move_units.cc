#include "hypergraph/move_units.h"

#include <algorithm>
#include <memory>

#include "core/random.h"
#include "hypergraph/clustering.h"
#include "hypergraph/contraction.h"

namespace gnnpart::hg {

std::vector<MoveUnits> move_unit_levels(const PartitionedHypergraph& phg, const HgContext& ctx,
                                        std::span<const Weight> max_weights, int levels,
                                        std::uint64_t seed) {
  const Hypergraph& hg = phg.hypergraph();
  const NodeID n = hg.num_nodes();
  const int ncon = phg.ncon();
  std::vector<Weight> max_cluster(ncon);
  for (int c = 0; c < ncon; ++c) {
    Weight smallest = max_weights[static_cast<std::size_t>(c)];
    for (BlockID b = 0; b < phg.k(); ++b)
      smallest = std::min(smallest, max_weights[static_cast<std::size_t>(b) * ncon + c]);
    max_cluster[c] = std::max<Weight>(1, smallest / ctx.bottleneck.unit_weight_divisor);
  }
  std::vector<MoveUnits> out;
  std::vector<NodeID> unit_of(n); // input vertex -> cluster of the current level
  for (NodeID u = 0; u < n; ++u)
    unit_of[u] = u;
  std::vector<BlockID> communities(phg.blocks().begin(), phg.blocks().end());
  std::unique_ptr<Hypergraph> coarse; // the current level when not the input
  for (int level = 0; level < levels; ++level) {
    const Hypergraph& current = coarse ? *coarse : hg;
    const NodeID size = current.num_nodes();
    const auto target =
        static_cast<NodeID>(static_cast<double>(size) / ctx.coarsening.max_shrink_per_pass);
    NodeID clusters = 0;
    const std::vector<NodeID> map =
        compute_clustering(current, ctx.coarsening, max_cluster, std::max<NodeID>(1, target),
                           derive_seed(seed, 0xB0, level), &clusters, communities);
    if (static_cast<double>(clusters) * ctx.coarsening.min_shrink_per_pass > size)
      break;
    for (NodeID& x : unit_of)
      x = map[x];
    MoveUnits units; // counting sort of the input vertices by cluster: members stay sorted
    units.offsets.assign(static_cast<std::size_t>(clusters) + 1, 0);
    for (const NodeID x : unit_of)
      ++units.offsets[x + 1];
    for (NodeID c = 0; c < clusters; ++c)
      units.offsets[c + 1] += units.offsets[c];
    units.members.resize(n);
    std::vector<std::uint32_t> next(units.offsets.begin(), units.offsets.end() - 1);
    for (NodeID u = 0; u < n; ++u)
      units.members[next[unit_of[u]]++] = u;
    out.push_back(std::move(units));
    std::vector<BlockID> coarse_communities(clusters);
    for (NodeID x = 0; x < size; ++x)
      coarse_communities[map[x]] = communities[x];
    communities = std::move(coarse_communities);
    if (level + 1 < levels)
      coarse = std::make_unique<Hypergraph>(contract(current, map, clusters));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace gnnpart::hg
