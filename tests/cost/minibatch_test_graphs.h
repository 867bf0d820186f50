#pragma once
// Shared by the mini-batch tests (minibatch_rows_test.cc, minibatch_time_test.cc): graphs with
// sorted adjacency, as the sampler requires, and partitions into contiguous stripes.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"

namespace gnnpart::cost {

// The same graph with sorted adjacency lists (what the sampler requires).
inline CsrGraph sorted_copy(const CsrGraph& g) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    std::vector<NodeID> nb(g.neighbors(u).begin(), g.neighbors(u).end());
    std::sort(nb.begin(), nb.end());
    adjacency.insert(adjacency.end(), nb.begin(), nb.end());
    offsets.push_back(adjacency.size());
  }
  return CsrGraph(std::move(offsets), std::move(adjacency));
}

// Block b holds the ids in [b n / k, (b + 1) n / k).
inline Partition stripes(NodeID n, BlockID k) {
  Partition p;
  p.k = k;
  for (NodeID u = 0; u < n; ++u)
    p.blocks.push_back(static_cast<BlockID>(u * k / n));
  return p;
}

} // namespace gnnpart::cost
