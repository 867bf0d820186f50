#include "distributed/contraction.h"

#include <algorithm>

#include "distributed/chunked_route.h"
#include "distributed/fetch.h"

namespace gnnpart::distributed {

Contraction contract(const Comm& comm, const DistGraph& graph, const Clustering& clustering,
                     std::uint64_t chunk_items) {
  const NodeID n_local = graph.n_local;
  // Non-empty clusters named after owned vertices become this rank's coarse vertices.
  std::vector<NodeID> coarse_index(n_local, kInvalidNodeID);
  std::vector<Weight> coarse_weights;
  for (NodeID u = 0; u < n_local; ++u)
    if (clustering.owned_size[u] > 0) {
      coarse_index[u] = static_cast<NodeID>(coarse_weights.size());
      coarse_weights.push_back(clustering.owned_weight[u]);
    }
  const std::uint64_t count = coarse_weights.size();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(comm.size));
  MPI_Allgather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm.comm);
  std::vector<std::uint64_t> vtxdist(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r)
    vtxdist[r + 1] = vtxdist[r] + counts[r];
  const NodeID coarse_first = static_cast<NodeID>(vtxdist[comm.rank]);

  // Coarse id of every label this rank sees.
  const std::vector<NodeID> labels = sorted_unique(clustering.labels);
  const std::vector<NodeID> ids = fetch<NodeID>(comm, graph.vtxdist, labels, [&](NodeID local) {
    return coarse_first + coarse_index[local];
  });
  std::vector<NodeID> coarse_label(graph.n_total());
  for (NodeID u = 0; u < graph.n_total(); ++u)
    coarse_label[u] = ids[static_cast<std::size_t>(
        std::lower_bound(labels.begin(), labels.end(), clustering.labels[u]) - labels.begin())];

  // Coarse entries, summed here first per chunk of fine vertices (about chunk_items fine
  // entries each), then at the owner of their source; one chunk is held at a time.
  std::vector<NodeID> chunk_begin{0};
  for (NodeID u = 0; u < n_local; ++u)
    if (graph.last_edge(u) - graph.first_edge(chunk_begin.back()) >= chunk_items)
      chunk_begin.push_back(u + 1);
  if (chunk_begin.back() != n_local)
    chunk_begin.push_back(n_local);
  std::vector<Entry> entries;
  std::uint64_t held = ~std::uint64_t{0};
  const auto build_chunk = [&](std::uint64_t c) {
    if (held == c)
      return;
    entries.clear();
    entries.reserve(graph.first_edge(chunk_begin[c + 1]) - graph.first_edge(chunk_begin[c]));
    for (NodeID u = chunk_begin[c]; u < chunk_begin[c + 1]; ++u)
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const NodeID cu = coarse_label[u], cv = coarse_label[graph.adjacency[e]];
        if (cu != cv)
          entries.push_back({cu, cv, graph.edge_weight(e)});
      }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries.size();) {
      Entry merged = entries[i++];
      while (i < entries.size() && entries[i].u == merged.u && entries[i].v == merged.v)
        merged.w += entries[i++].w;
      entries[kept++] = merged;
    }
    entries.resize(kept);
    held = c;
  };
  Contraction result;
  result.coarse = build_dist_graph_streamed<Entry>(
      comm, vtxdist, chunk_begin.size() - 1,
      [&](std::uint64_t c, auto&& send, RoutePass) {
        build_chunk(c);
        for (const Entry& e : entries)
          send(owner_of(vtxdist, e.u), e);
      },
      std::move(coarse_weights), Merge::kSum);
  result.coarse_of.assign(coarse_label.begin(), coarse_label.begin() + n_local);
  return result;
}

} // namespace gnnpart::distributed
