#include "hypergraph/coarsening.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/random.h"
#include "hypergraph/clustering.h"
#include "hypergraph/contraction.h"

namespace gnnpart::hg {

namespace {

// Drops level i's vertex -> nets arrays and packs its nets (i > 0, not parked).
void park(HgHierarchy& h, std::size_t i) {
  Hypergraph& level = h.levels[i - 1];
  const NodeID n = level.num_nodes();
  h.parked[i - 1] = PackedNets(n, level.release());
}

} // namespace

const Hypergraph& HgHierarchy::unpark(std::size_t i) {
  if (i == 0) {
    packed_input.restore();
    return *input;
  }
  ParkedLevel& p = parked[i - 1];
  if (p.empty()) // not parked
    return levels[i - 1];
  const NodeID n = p.num_nodes();
  Hypergraph::Arrays a = p.unpack(); // and frees the packed bytes
  levels[i - 1] = Hypergraph(n, std::move(a.net_offsets), std::move(a.pins),
                             std::move(a.net_weights), a.ncon, std::move(a.vertex_weights));
  return levels[i - 1];
}

void HgHierarchy::truncate(std::size_t i) {
  levels.resize(i);
  parked.resize(i);
  maps.resize(i);
}

HgHierarchy coarsen(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                    std::uint64_t seed, std::vector<BlockID> given) {
  const auto phase = scoped_phase(ctx.timer, "coarsen");
  const BlockID k = limits.k;
  const NodeID limit = ctx.coarsening.contraction_limit_multiplier * k;
  const auto total = vertex_weight_totals(hg);
  std::vector<Weight> max_cluster(total.size());
  for (std::size_t c = 0; c < total.size(); ++c) {
    Weight smallest_block = limits.perfect[c];
    for (BlockID b = 0; b < k; ++b)
      smallest_block = std::min(smallest_block, limits.perfect_of(b, static_cast<int>(c)));
    max_cluster[c] =
        std::max<Weight>(1, std::min<Weight>((total[c] + limit - 1) / limit, smallest_block));
  }

  HgHierarchy h{&hg, {}, {}, {}, std::move(given), {}};
  const Hypergraph* current = &hg;
  for (int level = 0; current->num_nodes() > limit; ++level) {
    const NodeID n = current->num_nodes();
    if (ctx.timer != nullptr)
      ctx.timer->detail(fmt::format("level {}, {} vertices", level + 1, n));
    const NodeID target =
        std::max<NodeID>(limit, static_cast<NodeID>(n / ctx.coarsening.max_shrink_per_pass));
    NodeID clusters = 0;
    std::vector<NodeID> map =
        compute_clustering(*current, ctx.coarsening, max_cluster, target,
                           derive_seed(seed, 0xC0, level), &clusters, h.communities);
    if (static_cast<double>(clusters) * ctx.coarsening.min_shrink_per_pass > n)
      break;
    if (!h.communities.empty()) {
      std::vector<BlockID> coarse(clusters);
      for (NodeID u = 0; u < n; ++u)
        coarse[map[u]] = h.communities[u];
      h.communities = std::move(coarse);
    }
    // A coarse level waits for its refinement from here on; contraction reads its pins only.
    const std::size_t fine = h.levels.size();
    if (fine > 0)
      park(h, fine);
    else if (ctx.parkable_input == &hg) // idle until its refinement: its pins packed meanwhile
      h.packed_input = PackedInput(*ctx.parkable_input);
    Hypergraph coarse = fine > 0                  ? contract(h.parked[fine - 1], map, clusters)
                        : !h.packed_input.empty() ? contract(h.packed_input.nets(), map, clusters)
                                                  : contract(hg, map, clusters);
    h.levels.push_back(std::move(coarse));
    h.parked.emplace_back();
    h.maps.emplace_back(std::move(map), clusters);
    current = &h.levels.back();
  }
  return h;
}

} // namespace gnnpart::hg
