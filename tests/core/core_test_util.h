#pragma once
// Random inputs and brute-force references shared by the core tests.
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/graph_builder.h"
#include "core/partition.h"
#include "core/random.h"
#include "core/types.h"

namespace gnnpart::testing {

// A random directed edge list with self loops, duplicates and (optionally) weights.
inline EdgeList random_edge_list(Rng& rng, NodeID n, std::size_t edges, bool weighted) {
  EdgeList list;
  list.n = n;
  for (std::size_t i = 0; i < edges; ++i) {
    const NodeID u = static_cast<NodeID>(rng.below(n));
    // Some repeats of the previous edge (and its reverse) so duplicates are common.
    NodeID v = static_cast<NodeID>(rng.below(n));
    if (i > 0 && rng.below(8) == 0) {
      list.sources.push_back(list.targets.back());
      list.targets.push_back(list.sources[list.sources.size() - 2]);
      if (weighted)
        list.weights.push_back(1 + static_cast<Weight>(rng.below(9)));
      continue;
    }
    list.sources.push_back(u);
    list.targets.push_back(v);
    if (weighted)
      list.weights.push_back(1 + static_cast<Weight>(rng.below(9)));
  }
  return list;
}

// Undirected simple reference: neighbour -> largest weight, per vertex.
inline std::vector<std::map<NodeID, Weight>> reference_adjacency(const EdgeList& list) {
  std::vector<std::map<NodeID, Weight>> adj(list.n);
  for (std::size_t i = 0; i < list.sources.size(); ++i) {
    const NodeID u = list.sources[i];
    const NodeID v = list.targets[i];
    if (u == v)
      continue;
    const Weight w = list.weights.empty() ? 1 : list.weights[i];
    for (auto [a, b] : {std::pair{u, v}, std::pair{v, u}}) {
      auto [it, inserted] = adj[a].emplace(b, w);
      if (!inserted)
        it->second = std::max(it->second, w);
    }
  }
  return adj;
}

// A random partition into k blocks that leaves some blocks empty when `leave_empty`.
inline Partition random_partition(Rng& rng, NodeID n, BlockID k, bool leave_empty) {
  Partition partition;
  partition.k = k;
  std::vector<BlockID> allowed;
  for (BlockID b = 0; b < k; ++b) {
    if (!leave_empty || b % 3 != 1)
      allowed.push_back(b);
  }
  for (NodeID u = 0; u < n; ++u)
    partition.blocks.push_back(allowed[rng.below(allowed.size())]);
  return partition;
}

} // namespace gnnpart::testing
