#include "distributed/contraction.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "distributed/chunked_route.h"
#include "distributed/fetch.h"
#include "distributed/memory_trace.h"

namespace gnnpart::distributed {

namespace {

// Coarse vertices: the non-empty clusters named after owned vertices, numbered rank by rank.
// Sets vtxdist and the weights of this rank's coarse vertices; overwrites clustering.labels
// (owned and ghost vertices) with their coarse ids and frees the rest of the clustering.
void number_coarse_vertices(const Comm& comm, const DistGraph& graph, Clustering& clustering,
                            std::vector<std::uint64_t>& vtxdist,
                            std::vector<Weight>& coarse_weights) {
  const NodeID n_local = graph.n_local;
  std::vector<NodeID> coarse_index(n_local, kInvalidNodeID);
  for (NodeID u = 0; u < n_local; ++u)
    if (clustering.owned_size[u] > 0) {
      coarse_index[u] = static_cast<NodeID>(coarse_weights.size());
      coarse_weights.push_back(clustering.owned_weight[u]);
    }
  std::vector<std::int64_t>().swap(clustering.owned_size);
  std::vector<Weight>().swap(clustering.owned_weight);
  const std::uint64_t count = coarse_weights.size();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(comm.size));
  MPI_Allgather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm.comm);
  vtxdist.assign(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r)
    vtxdist[r + 1] = vtxdist[r] + counts[r];
  const NodeID coarse_first = static_cast<NodeID>(vtxdist[comm.rank]);

  // Coarse id of every label this rank sees, asked of the labels' owners.
  const std::vector<NodeID> labels = sorted_unique(clustering.labels);
  const std::vector<NodeID> ids = fetch<NodeID>(comm, graph.vtxdist, labels, [&](NodeID local) {
    return coarse_first + coarse_index[local];
  });
  std::vector<NodeID>().swap(coarse_index);
  for (NodeID& label : clustering.labels)
    label = ids[static_cast<std::size_t>(std::lower_bound(labels.begin(), labels.end(), label) -
                                         labels.begin())];
}

// Sends the coarse entries of the fine graph to the owners of their sources and builds the
// coarse graph there. The owned fine vertices are taken in the order of their coarse vertex, in
// chunks of about chunk_items / P fine entries (so that a round brings a rank at most about
// chunk_items entries from all ranks together); a chunk's coarse entries are summed here
// first, so the parallel entries of a cluster's members on this rank leave as one entry unless
// a chunk boundary splits the cluster; the owner sums the rest. One chunk is held at a time.
// T: Entry, or Entry32 when every sum fits 32 bits.
template <typename T>
DistGraph build_coarse(const Comm& comm, const DistGraph& graph,
                       const std::vector<NodeID>& coarse_label, std::vector<std::uint64_t> vtxdist,
                       std::vector<Weight> coarse_weights, std::uint64_t chunk_items) {
  const NodeID n_local = graph.n_local;
  chunk_items = std::max<std::uint64_t>(1, chunk_items / static_cast<std::uint64_t>(comm.size));
  std::vector<NodeID> order(n_local);
  std::iota(order.begin(), order.end(), NodeID{0});
  std::sort(order.begin(), order.end(), [&](NodeID a, NodeID b) {
    return coarse_label[a] != coarse_label[b] ? coarse_label[a] < coarse_label[b] : a < b;
  });
  std::vector<NodeID> chunk_begin{0}; // positions in order
  EdgeID in_chunk = 0;
  for (NodeID i = 0; i < n_local; ++i) {
    in_chunk += graph.last_edge(order[i]) - graph.first_edge(order[i]);
    if (in_chunk >= chunk_items) {
      chunk_begin.push_back(i + 1);
      in_chunk = 0;
    }
  }
  if (chunk_begin.back() != n_local)
    chunk_begin.push_back(n_local);
  std::vector<T> entries;
  std::uint64_t held = ~std::uint64_t{0};
  RowReader row(graph, false); // the finest graph's rows are read from its spill
  const auto build_chunk = [&](std::uint64_t c) {
    if (held == c)
      return;
    entries.clear();
    for (NodeID i = chunk_begin[c]; i < chunk_begin[c + 1]; ++i) {
      const NodeID u = order[i], cu = coarse_label[u];
      const std::span<const NodeID> neighbours = row(u);
      for (std::size_t j = 0; j < neighbours.size(); ++j) {
        const NodeID cv = coarse_label[neighbours[j]];
        if (cu != cv)
          entries.push_back(
              {cu, cv, static_cast<decltype(T::w)>(graph.edge_weight(graph.first_edge(u) + j))});
      }
    }
    // The fine vertices come in the order of their coarse vertex, so the entries are grouped
    // by source already: sorting each source's run by target (a cluster's entries, a few
    // hundred on R-MAT) orders them as one sort by (source, target) would, in fewer steps.
    for (std::size_t begin = 0; begin < entries.size();) {
      std::size_t end = begin + 1;
      while (end < entries.size() && entries[end].u == entries[begin].u)
        ++end;
      std::sort(entries.begin() + static_cast<std::ptrdiff_t>(begin),
                entries.begin() + static_cast<std::ptrdiff_t>(end),
                [](const T& a, const T& b) { return a.v < b.v; });
      begin = end;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries.size();) {
      T merged = entries[i++];
      while (i < entries.size() && entries[i].u == merged.u && entries[i].v == merged.v)
        merged.w += entries[i++].w;
      entries[kept++] = merged;
    }
    entries.resize(kept);
    held = c;
  };
  const std::vector<std::uint64_t> ranges = vtxdist;
  return build_dist_graph_streamed<T>(
      comm, std::move(vtxdist), chunk_begin.size() - 1,
      [&](std::uint64_t c, auto&& send, RoutePass) {
        build_chunk(c);
        for (const T& e : entries)
          send(owner_of(ranges, e.u), e);
      },
      std::move(coarse_weights), Merge::kSum);
}

// The coarse graph of the fine graph under coarse_label (the coarse id of every owned and ghost
// vertex). A coarse edge weighs at most the total weight of the fine entries: its weights are
// 32-bit when that fits.
DistGraph build_coarse(const Comm& comm, const DistGraph& graph,
                       const std::vector<NodeID>& coarse_label, std::vector<std::uint64_t> vtxdist,
                       std::vector<Weight> coarse_weights, std::uint64_t chunk_items) {
  Weight local_weight = 0;
  for (EdgeID e = 0; e < graph.local_entries(); ++e)
    local_weight += graph.edge_weight(e);
  const bool narrow = static_cast<std::uint64_t>(sum_all(comm, std::int64_t{local_weight})) <=
                      std::numeric_limits<std::uint32_t>::max();
  return narrow ? build_coarse<Entry32>(comm, graph, coarse_label, std::move(vtxdist),
                                        std::move(coarse_weights), chunk_items)
                : build_coarse<Entry>(comm, graph, coarse_label, std::move(vtxdist),
                                      std::move(coarse_weights), chunk_items);
}

} // namespace

Contraction contract(const Comm& comm, const DistGraph& graph, Clustering clustering,
                     std::uint64_t chunk_items) {
  std::vector<std::uint64_t> vtxdist;
  std::vector<Weight> coarse_weights;
  number_coarse_vertices(comm, graph, clustering, vtxdist, coarse_weights);
  const std::vector<NodeID>& coarse_label = clustering.labels;
  Contraction result;
  result.coarse = build_coarse(comm, graph, coarse_label, std::move(vtxdist),
                               std::move(coarse_weights), chunk_items);
  result.coarse_of.assign(coarse_label.begin(), coarse_label.begin() + graph.n_local);
  mark_memory_phase("contract");
  return result;
}

FreedLevel free_level(DistGraph& coarse) {
  FreedLevel freed{std::move(coarse.vtxdist), std::move(coarse.vertex_weights)};
  coarse = DistGraph{};
  return freed;
}

DistGraph recontract(const Comm& comm, const DistGraph& graph, std::vector<NodeID>& coarse_of,
                     FreedLevel freed, std::uint64_t chunk_items) {
  // coarse_of grows into the labels of the owned and ghost vertices (the ghosts' coarse ids
  // from their owners, as number_coarse_vertices gave them), so that the map is not held twice
  // while the coarse graph is built; it is cut back to the owned vertices afterwards.
  coarse_of.resize(graph.n_total());
  update_all_ghosts<NodeID>(comm, graph, coarse_of);
  DistGraph coarse = build_coarse(comm, graph, coarse_of, std::move(freed.vtxdist),
                                  std::move(freed.vertex_weights), chunk_items);
  coarse_of.resize(graph.n_local);
  coarse_of.shrink_to_fit();
  mark_memory_phase("recontract");
  return coarse;
}

} // namespace gnnpart::distributed
