#include "distributed/dist_graph.h"

#include <algorithm>
#include <type_traits>

namespace gnnpart::distributed {

NodeID local_id(const DistGraph& graph, NodeID global) {
  if (global >= graph.vtxdist[graph.rank] && global < graph.vtxdist[graph.rank + 1])
    return global - graph.first();
  const auto it =
      std::lower_bound(graph.ghost_global.begin(), graph.ghost_global.end(), global);
  if (it == graph.ghost_global.end() || *it != global)
    return kInvalidNodeID;
  return graph.n_local + static_cast<NodeID>(it - graph.ghost_global.begin());
}

template <typename T>
DistGraph build_dist_graph(const Comm& comm, std::vector<std::uint64_t> vtxdist,
                           std::vector<T> entries, std::vector<Weight> vertex_weights, Merge merge) {
  constexpr bool weighted_edges = std::is_same_v<T, Entry>;
  DistGraph g;
  g.rank = comm.rank;
  g.vtxdist = std::move(vtxdist);
  const NodeID first = static_cast<NodeID>(g.vtxdist[comm.rank]);
  g.n_local = static_cast<NodeID>(g.vtxdist[comm.rank + 1] - first);
  std::sort(entries.begin(), entries.end(), [](const T& a, const T& b) {
    return a.u != b.u ? a.u < b.u : a.v < b.v;
  });
  // Drop self loops, merge parallel entries (in place).
  std::size_t kept = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const T& e = entries[i];
    if (e.u == e.v)
      continue;
    if (kept > 0 && entries[kept - 1].u == e.u && entries[kept - 1].v == e.v) {
      add_weight(entries[kept - 1], weight_of(e), merge == Merge::kSum);
      continue;
    }
    entries[kept++] = e;
  }
  entries.resize(kept);
  entries.shrink_to_fit();

  // Ghosts: off-range targets, sorted and unique.
  for (const T& e : entries)
    if (e.v < first || e.v >= first + g.n_local)
      g.ghost_global.push_back(e.v);
  std::sort(g.ghost_global.begin(), g.ghost_global.end());
  g.ghost_global.erase(std::unique(g.ghost_global.begin(), g.ghost_global.end()),
                       g.ghost_global.end());
  g.ghost_global.shrink_to_fit();
  g.ghost_owner.resize(g.ghost_global.size());
  for (std::size_t i = 0; i < g.ghost_global.size(); ++i)
    g.ghost_owner[i] = owner_of(g.vtxdist, g.ghost_global[i]);

  g.offsets.assign(static_cast<std::size_t>(g.n_local) + 1, 0);
  g.adjacency.resize(entries.size());
  if (weighted_edges)
    g.edge_weights.resize(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const T& e = entries[i];
    ++g.offsets[e.u - first + 1];
    g.adjacency[i] = local_id(g, e.v);
    if (weighted_edges)
      g.edge_weights[i] = weight_of(e);
  }
  for (NodeID u = 0; u < g.n_local; ++u)
    g.offsets[u + 1] += g.offsets[u];
  g.vertex_weights = std::move(vertex_weights);

  g.global_n = g.vtxdist.back();
  g.global_m = sum_all(comm, static_cast<std::uint64_t>(entries.size())) / 2;
  Weight local_weight = g.vertex_weights.empty() ? static_cast<Weight>(g.n_local) : 0;
  for (const Weight w : g.vertex_weights)
    local_weight += w;
  g.total_weight = sum_all(comm, local_weight);
  return g;
}

template DistGraph build_dist_graph<Entry>(const Comm&, std::vector<std::uint64_t>,
                                          std::vector<Entry>, std::vector<Weight>, Merge);
template DistGraph build_dist_graph<Edge>(const Comm&, std::vector<std::uint64_t>,
                                         std::vector<Edge>, std::vector<Weight>, Merge);

} // namespace gnnpart::distributed
