#pragma once
// A graph distributed by contiguous vertex ranges: rank r owns the global vertices
// [vtxdist[r], vtxdist[r + 1]) and stores their adjacency as a CSR over local ids: owned
// vertices are 0..n_local-1 (global id = first + local), ghosts (neighbours owned elsewhere)
// follow as n_local.. in increasing global id. Every undirected edge is stored at the owners
// of both endpoints, so the ghosts of a rank are exactly the off-range ends of its edges.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/types.h"
#include "distributed/comm.h"
#include "distributed/spilled_adjacency.h"

namespace gnnpart::distributed {

struct DistGraph {
  std::vector<std::uint64_t> vtxdist; // size P + 1
  int rank = 0;
  NodeID n_local = 0;
  std::vector<EdgeID> offsets{0}; // n_local + 1
  std::vector<NodeID> adjacency;  // local ids (owned or ghost); empty while spilled
  // Set while the adjacency lives in a scratch file (spill_adjacency): read rows by RowReader.
  std::shared_ptr<const SpilledAdjacency> spilled;
  // Edge weights: 64-bit (weighted input), or 32-bit on contracted levels whose total edge
  // weight fits (edge_weights32); both empty: unit. At most one is set, the same on every rank.
  std::vector<Weight> edge_weights;
  std::vector<std::uint32_t> edge_weights32;
  std::vector<Weight> vertex_weights; // owned only; empty: unit (the same on every rank)
  std::vector<NodeID> ghost_global;   // global id of ghost n_local + i, increasing
  // While set (find_ghost_ranks): per owned vertex, bit r of byte u is set when rank r holds u
  // as a ghost, so that ghost updates need not read its row (on the finest level, from the
  // scratch file). Empty: the rows are read.
  std::vector<std::uint8_t> ghost_ranks;
  std::uint64_t global_n = 0;
  std::uint64_t global_m = 0; // undirected edges
  Weight total_weight = 0;    // sum of vertex weights over all ranks

  NodeID first() const { return static_cast<NodeID>(vtxdist[rank]); }
  NodeID n_ghost() const { return static_cast<NodeID>(ghost_global.size()); }
  NodeID n_total() const { return n_local + n_ghost(); }
  bool is_owned(NodeID local) const { return local < n_local; }
  NodeID global_id(NodeID local) const {
    return local < n_local ? first() + local : ghost_global[local - n_local];
  }
  // A ghost's rank comes from the ranges (a binary search over P + 1 bounds), not stored.
  int owner(NodeID local) const;
  EdgeID first_edge(NodeID u) const { return offsets[u]; }
  EdgeID last_edge(NodeID u) const { return offsets[u + 1]; }
  Weight edge_weight(EdgeID e) const {
    if (!edge_weights32.empty())
      return edge_weights32[e];
    return edge_weights.empty() ? 1 : edge_weights[e];
  }
  Weight vertex_weight(NodeID u) const { return vertex_weights.empty() ? 1 : vertex_weights[u]; }
  EdgeID local_entries() const { return offsets[n_local]; }
};

// Rank owning global vertex v under vtxdist.
inline int owner_of(std::span<const std::uint64_t> vtxdist, std::uint64_t v) {
  return static_cast<int>(std::upper_bound(vtxdist.begin(), vtxdist.end(), v) - vtxdist.begin()) -
         1;
}

inline int DistGraph::owner(NodeID local) const {
  return local < n_local ? rank : owner_of(vtxdist, ghost_global[local - n_local]);
}

// A directed entry u -> v (global ids) with its weight, as routed between ranks; unweighted
// graphs route the 8-byte Edge instead (weight 1), contracted levels whose total edge weight
// fits 32 bits the 12-byte Entry32 (the graph built from them keeps edge_weights32).
struct Entry {
  NodeID u;
  NodeID v;
  Weight w;
};
struct Entry32 {
  NodeID u;
  NodeID v;
  std::uint32_t w;
};
struct Edge {
  NodeID u;
  NodeID v;
};

// A vertex weight routed to the vertex's owner.
struct VertexWeight {
  NodeID u;
  Weight w;
};

enum class Merge { kMax, kSum }; // parallel entries: largest weight (input) or sum (contraction)

// Finishes this rank's part of a graph whose CSR rows (offsets, adjacency, edge_weights or
// edge_weights32 if any) hold global ids in any order, self loops and parallel entries
// included: sorts every row, drops self loops, merges parallel entries (in place), finds the
// ghosts and turns the adjacency into local ids; sets the global counts. vtxdist, rank,
// n_local and vertex_weights (owned, in order, or empty for unit) are set already. Collective.
void finish_dist_graph(const Comm& comm, DistGraph& g, Merge merge);

// The ranks holding each owned vertex as a ghost (DistGraph::ghost_ranks, 1 B per owned
// vertex), from one pass over the rows; only for P <= 8 (else left empty). Local.
void find_ghost_ranks(DistGraph& graph);

// Per rank r, the end of the local ids of the ghosts owned by ranks <= r (ghosts are in
// increasing global id, so each rank's are consecutive): a ghost's owner without reading its
// global id.
std::vector<NodeID> ghost_rank_ends(const DistGraph& graph);

// For each owned vertex in `changed`, sends value[u] to every rank holding u as a ghost; there
// value[ghost] is set. value spans n_total. Collective.
template <typename T>
void update_ghosts(const Comm& comm, const DistGraph& graph, std::span<const NodeID> changed,
                   std::vector<T>& value);

// The same for all owned vertices.
template <typename T>
void update_all_ghosts(const Comm& comm, const DistGraph& graph, std::vector<T>& value);

// Local id of a global vertex known here (owned or ghost), kInvalidNodeID otherwise.
NodeID local_id(const DistGraph& graph, NodeID global);

} // namespace gnnpart::distributed

#include "distributed/ghost_exchange_impl.h"
