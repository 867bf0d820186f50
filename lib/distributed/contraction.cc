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
// coarse graph there, its rows merged as they arrive. The owned fine vertices are taken in the
// order of their coarse vertex, in rounds bounded by a coarse id that all ranks agree on: each
// rank proposes how far about chunk_items / P fine entries (whole coarse vertices, at least
// one) take it, the smallest proposal is the round's bound, and every rank sends the coarse
// entries of its fine vertices below it (summed here first, so the parallel entries of a
// cluster's members on this rank leave as one entry). A round so brings each owner the
// complete rows of its coarse vertices below the bound: it sums their parallel entries at
// once, and the coarse CSR is allocated at its merged size (8 B per coarse entry, 32-bit
// weights) instead of holding every rank's partial sums first (on R-MAT 10^7 at P = 4, 14%
// more entries, the peak of the contractions). Two passes of the same rounds: the rows'
// lengths, then their entries. T: Entry, or Entry32 when every sum fits 32 bits.
template <typename T>
DistGraph build_coarse(const Comm& comm, const DistGraph& graph,
                       const std::vector<NodeID>& coarse_label, std::vector<std::uint64_t> vtxdist,
                       std::vector<Weight>& coarse_weights, std::uint64_t chunk_items) {
  const NodeID n_local = graph.n_local;
  const std::size_t p = static_cast<std::size_t>(comm.size);
  const std::uint64_t budget =
      std::max<std::uint64_t>(1, chunk_items / static_cast<std::uint64_t>(comm.size));
  std::vector<NodeID> order(n_local);
  std::iota(order.begin(), order.end(), NodeID{0});
  std::sort(order.begin(), order.end(), [&](NodeID a, NodeID b) {
    return coarse_label[a] != coarse_label[b] ? coarse_label[a] < coarse_label[b] : a < b;
  });
  const auto label_at = [&](NodeID i) { return coarse_label[order[i]]; };
  const auto degree = [&](NodeID u) { return graph.last_edge(u) - graph.first_edge(u); };
  constexpr std::uint64_t kEnd = std::numeric_limits<std::uint64_t>::max();

  DistGraph g = empty_rows(comm, std::move(vtxdist));
  const NodeID first = g.first();
  RowReader row(graph, false); // the finest graph's rows are read from its spill
  std::vector<T> entries, arrived;
  std::vector<std::uint64_t> counts(p);
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  const auto by_edge = [](const T& a, const T& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; };
  // Sorts entries by (source, target) and sums the parallel ones in place.
  const auto merge = [&](std::vector<T>& list, bool grouped) {
    if (grouped) {
      // Grouped by source already (the fine vertices come in the order of their coarse
      // vertex): each source's run (a cluster's entries) is sorted by target alone.
      for (std::size_t begin = 0; begin < list.size();) {
        std::size_t end = begin + 1;
        while (end < list.size() && list[end].u == list[begin].u)
          ++end;
        std::sort(list.begin() + static_cast<std::ptrdiff_t>(begin),
                  list.begin() + static_cast<std::ptrdiff_t>(end),
                  [](const T& a, const T& b) { return a.v < b.v; });
        begin = end;
      }
    } else {
      std::sort(list.begin(), list.end(), by_edge);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < list.size();) {
      T merged = list[i++];
      while (i < list.size() && list[i].u == merged.u && list[i].v == merged.v)
        merged.w += list[i++].w;
      list[kept++] = merged;
    }
    list.resize(kept);
  };
  for (const bool fill : {false, true}) {
    NodeID pos = 0, proposed_at = kInvalidNodeID;
    std::uint64_t proposal = 0;
    for (std::uint64_t bound = 0; bound != kEnd;) {
      // This rank's proposal: the coarse id of the first vertex past its budget (the same
      // until this rank sends again).
      if (proposed_at != pos) {
        NodeID end = pos;
        for (std::uint64_t taken = 0; end < n_local;) {
          NodeID group_end = end;
          std::uint64_t group = 0;
          for (; group_end < n_local && label_at(group_end) == label_at(end); ++group_end)
            group += degree(order[group_end]);
          if (end > pos && taken + group > budget)
            break;
          taken += group;
          end = group_end;
        }
        proposal = end < n_local ? label_at(end) : kEnd;
        proposed_at = pos;
      }
      MPI_Allreduce(&proposal, &bound, 1, MPI_UINT64_T, MPI_MIN, comm.comm);
      entries.clear();
      for (; pos < n_local && label_at(pos) < bound; ++pos) {
        const NodeID u = order[pos], cu = coarse_label[u];
        const std::span<const NodeID> neighbours = row(u);
        for (std::size_t j = 0; j < neighbours.size(); ++j) {
          const NodeID cv = coarse_label[neighbours[j]];
          if (cu != cv)
            entries.push_back(
                {cu, cv, static_cast<decltype(T::w)>(graph.edge_weight(graph.first_edge(u) + j))});
        }
      }
      merge(entries, true);
      // Sorted by source, so by owner: entries is the send buffer as it stands.
      std::fill(counts.begin(), counts.end(), 0);
      for (const T& e : entries)
        ++counts[static_cast<std::size_t>(owner_of(g.vtxdist, e.u))];
      const std::vector<std::uint64_t> arriving = exchange_counts(comm, counts);
      std::uint64_t sent = 0, received = 0;
      for (std::size_t d = 0; d < p; ++d) {
        sd[d] = static_cast<int>(sent);
        sc[d] = static_cast<int>(counts[d]);
        sent += counts[d];
        rd[d] = static_cast<int>(received);
        rc[d] = static_cast<int>(arriving[d]);
        received += arriving[d];
      }
      arrived.resize(received);
      alltoallv_round(comm, entries.data(), sc, sd, arrived.data(), rc, rd, sizeof(T));
      merge(arrived, false); // complete rows: every rank's entries below the bound are here
      for (const T& e : arrived) {
        if (fill)
          place_entry(g, first, e);
        else
          ++g.offsets[e.u - first + 1];
      }
    }
    if (!fill)
      start_rows<T>(g);
  }
  std::vector<T>().swap(entries);
  std::vector<T>().swap(arrived);
  std::vector<NodeID>().swap(order);
  g.vertex_weights = std::move(coarse_weights);
  finish_dist_graph(comm, g, Merge::kSum); // the rows are merged: it finds the ghosts
  return g;
}

// The coarse graph of the fine graph under coarse_label (the coarse id of every owned and ghost
// vertex). A coarse edge weighs at most the total weight of the fine entries: its weights are
// 32-bit when that fits.
DistGraph build_coarse(const Comm& comm, const DistGraph& graph,
                       const std::vector<NodeID>& coarse_label, std::vector<std::uint64_t> vtxdist,
                       std::vector<Weight>& coarse_weights, std::uint64_t chunk_items) {
  Weight local_weight = 0;
  for (EdgeID e = 0; e < graph.local_entries(); ++e)
    local_weight += graph.edge_weight(e);
  const bool narrow = static_cast<std::uint64_t>(sum_all(comm, std::int64_t{local_weight})) <=
                      std::numeric_limits<std::uint32_t>::max();
  return narrow ? build_coarse<Entry32>(comm, graph, coarse_label, std::move(vtxdist),
                                        coarse_weights, chunk_items)
                : build_coarse<Entry>(comm, graph, coarse_label, std::move(vtxdist), coarse_weights,
                                      chunk_items);
}

} // namespace

Contraction contract(const Comm& comm, const DistGraph& graph, Clustering clustering,
                     std::uint64_t chunk_items) {
  std::vector<std::uint64_t> vtxdist;
  std::vector<Weight> coarse_weights;
  number_coarse_vertices(comm, graph, clustering, vtxdist, coarse_weights);
  const std::vector<NodeID>& coarse_label = clustering.labels;
  Contraction result;
  result.coarse =
      build_coarse(comm, graph, coarse_label, std::move(vtxdist), coarse_weights, chunk_items);
  result.coarse_of.assign(coarse_label.begin(), coarse_label.begin() + graph.n_local);
  mark_memory_phase("contract");
  return result;
}

} // namespace gnnpart::distributed
