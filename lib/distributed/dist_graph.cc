#include "distributed/dist_graph.h"

#include <algorithm>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

#include "distributed/ghost_ids.h"

namespace gnnpart::distributed {

namespace {

// Shortens v to size and gives the whole pages past its new end back to the system without
// the copy of shrink_to_fit (which would hold the old and the new array at once): the
// vector's capacity stays, its tail is never touched again (these arrays do not grow).
template <typename T> void truncate_in_place(std::vector<T>& v, std::size_t size) {
  v.resize(size);
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin =
      (reinterpret_cast<std::uintptr_t>(v.data() + size) + page - 1) & ~(page - 1);
  const std::uintptr_t end =
      reinterpret_cast<std::uintptr_t>(v.data() + v.capacity()) & ~(page - 1);
  if (end > begin)
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

} // namespace

std::vector<NodeID> ghost_rank_ends(const DistGraph& graph) {
  const std::size_t p = graph.vtxdist.size() - 1;
  std::vector<NodeID> ends(p);
  for (std::size_t r = 0; r < p; ++r)
    ends[r] = graph.n_local +
              static_cast<NodeID>(std::lower_bound(graph.ghost_global.begin(),
                                                   graph.ghost_global.end(), graph.vtxdist[r + 1]) -
                                  graph.ghost_global.begin());
  return ends;
}

void find_ghost_ranks(DistGraph& graph) {
  if (graph.vtxdist.size() - 1 > 8)
    return;
  const std::vector<NodeID> ends = ghost_rank_ends(graph);
  graph.ghost_ranks.assign(graph.n_local, 0);
  RowReader row(graph, true);
  for (NodeID u = 0; u < graph.n_local; ++u) {
    std::uint8_t mask = 0;
    for (const NodeID v : row(u))
      if (v >= graph.n_local)
        mask |= static_cast<std::uint8_t>(
            1U << (std::upper_bound(ends.begin(), ends.end(), v) - ends.begin()));
    graph.ghost_ranks[u] = mask;
  }
}

NodeID local_id(const DistGraph& graph, NodeID global) {
  if (global >= graph.vtxdist[graph.rank] && global < graph.vtxdist[graph.rank + 1])
    return global - graph.first();
  const auto it = std::lower_bound(graph.ghost_global.begin(), graph.ghost_global.end(), global);
  if (it == graph.ghost_global.end() || *it != global)
    return kInvalidNodeID;
  return graph.n_local + static_cast<NodeID>(it - graph.ghost_global.begin());
}

namespace {

// Sorts every row of a CSR whose adjacency holds global ids, drops self loops and merges
// parallel entries (largest weight or sum), compacting in place. weights: the graph's weight
// array (64- or 32-bit; the caller of a 32-bit sum guarantees that sums fit), or null.
template <typename W>
void merge_rows(DistGraph& g, std::vector<W>* weights, NodeID first, Merge merge) {
  std::vector<std::pair<NodeID, W>> row; // one row's entries with their weights
  EdgeID kept = 0;
  for (NodeID u = 0; u < g.n_local; ++u) {
    const EdgeID begin = g.offsets[u], end = g.offsets[u + 1];
    g.offsets[u] = kept;
    const NodeID self = first + u;
    if (weights == nullptr) {
      std::sort(g.adjacency.begin() + begin, g.adjacency.begin() + end);
      for (EdgeID e = begin; e < end; ++e) {
        const NodeID v = g.adjacency[e];
        if (v != self && (kept == g.offsets[u] || g.adjacency[kept - 1] != v))
          g.adjacency[kept++] = v;
      }
      continue;
    }
    row.clear();
    for (EdgeID e = begin; e < end; ++e)
      row.emplace_back(g.adjacency[e], (*weights)[e]);
    std::sort(row.begin(), row.end());
    for (const auto& [v, w] : row) {
      if (v == self)
        continue;
      if (kept > g.offsets[u] && g.adjacency[kept - 1] == v) {
        W& merged = (*weights)[kept - 1];
        merged = merge == Merge::kSum ? static_cast<W>(merged + w) : std::max(merged, w);
        continue;
      }
      g.adjacency[kept] = v;
      (*weights)[kept++] = w;
    }
  }
  g.offsets[g.n_local] = kept;
  truncate_in_place(g.adjacency, kept);
  if (weights != nullptr)
    truncate_in_place(*weights, kept);
}

// Ghosts: the off-range ids of the adjacency, sorted and unique (collect_ghosts); then every
// entry becomes a local id through a GhostIndex (ghost_ids.h: both in cache-sized pieces).
void localize(DistGraph& g, NodeID first) {
  const NodeID last = first + g.n_local;
  g.ghost_global = collect_ghosts(g.adjacency, first, last, g.vtxdist.back());
  const GhostIndex index(g.ghost_global, g.vtxdist.back());
  for (NodeID& v : g.adjacency)
    v = v >= first && v < last ? v - first : g.n_local + index.position(v);
}

} // namespace

void finish_dist_graph(const Comm& comm, DistGraph& g, Merge merge) {
  const NodeID first = g.first();
  if (!g.edge_weights32.empty())
    merge_rows(g, &g.edge_weights32, first, merge);
  else if (!g.edge_weights.empty())
    merge_rows(g, &g.edge_weights, first, merge);
  else
    merge_rows<Weight>(g, nullptr, first, merge);
  localize(g, first);
  g.global_n = g.vtxdist.back();
  g.global_m = sum_all(comm, static_cast<std::uint64_t>(g.adjacency.size())) / 2;
  Weight local_weight = g.vertex_weights.empty() ? static_cast<Weight>(g.n_local) : 0;
  for (const Weight w : g.vertex_weights)
    local_weight += w;
  g.total_weight = sum_all(comm, local_weight);
}

} // namespace gnnpart::distributed
