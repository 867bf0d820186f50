#include "partition/multilevel/initial/fixed_growing.h"

#include <queue>
#include <tuple>

namespace gnnpart::ml {

std::vector<BlockID> grow_from_fixed(const CsrGraph& graph, const BlockLimits& limits,
                                     std::span<const BlockID> fixed) {
  const NodeID n = graph.num_nodes();
  const BlockID k = limits.k;
  const int ncon = graph.ncon();
  std::vector<BlockID> blocks(n, kInvalidBlockID);
  std::vector<Weight> load(static_cast<std::size_t>(k) * ncon, 0);
  auto fits = [&](NodeID u, BlockID b) {
    for (int c = 0; c < ncon; ++c)
      if (load[static_cast<std::size_t>(b) * ncon + c] + graph.vertex_weight(u, c) >
          limits.max(b, c))
        return false;
    return true;
  };
  auto lightest = [&](NodeID u, bool need_room) {
    BlockID best = kInvalidBlockID;
    for (BlockID b = 0; b < k; ++b) {
      if (need_room && !fits(u, b))
        continue;
      if (best == kInvalidBlockID ||
          load[static_cast<std::size_t>(b) * ncon] < load[static_cast<std::size_t>(best) * ncon])
        best = b;
    }
    return best;
  };
  // (connection, vertex, block); entries go stale when the vertex is taken or the connection
  // grows (a fresher, larger entry is pushed then), so a popped entry is checked before use.
  using Entry = std::tuple<Weight, NodeID, BlockID>;
  auto later = [](const Entry& a, const Entry& b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) < std::get<0>(b);
    return std::make_pair(std::get<1>(a), std::get<2>(a)) >
           std::make_pair(std::get<1>(b), std::get<2>(b));
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> queue(later);
  auto connection = [&](NodeID u, BlockID b) {
    Weight conn = 0;
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      if (blocks[graph.edge_target(e)] == b)
        conn += graph.edge_weight(e);
    return conn;
  };
  auto take = [&](NodeID u, BlockID b) {
    blocks[u] = b;
    for (int c = 0; c < ncon; ++c)
      load[static_cast<std::size_t>(b) * ncon + c] += graph.vertex_weight(u, c);
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
      const NodeID v = graph.edge_target(e);
      if (blocks[v] == kInvalidBlockID)
        queue.emplace(connection(v, b), v, b);
    }
  };
  NodeID placed = 0;
  for (NodeID u = 0; u < n; ++u)
    if (fixed[u] != kInvalidBlockID) {
      blocks[u] = fixed[u];
      for (int c = 0; c < ncon; ++c)
        load[static_cast<std::size_t>(fixed[u]) * ncon + c] += graph.vertex_weight(u, c);
      ++placed;
    }
  for (NodeID u = 0; u < n; ++u)
    if (fixed[u] != kInvalidBlockID)
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const NodeID v = graph.edge_target(e);
        if (blocks[v] == kInvalidBlockID)
          queue.emplace(connection(v, fixed[u]), v, fixed[u]);
      }
  NodeID next_free = 0; // scan position for vertices no block reaches
  while (placed < n) {
    if (!queue.empty()) {
      const auto [conn, u, b] = queue.top();
      queue.pop();
      if (blocks[u] != kInvalidBlockID || !fits(u, b) || connection(u, b) != conn)
        continue;
      take(u, b);
      ++placed;
      continue;
    }
    while (blocks[next_free] != kInvalidBlockID)
      ++next_free;
    BlockID b = lightest(next_free, true);
    if (b == kInvalidBlockID)
      b = lightest(next_free, false);
    take(next_free, b);
    ++placed;
  }
  return blocks;
}

} // namespace gnnpart::ml
