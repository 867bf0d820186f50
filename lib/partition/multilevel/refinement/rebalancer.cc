#include "partition/multilevel/refinement/rebalancer.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "partition/multilevel/rating_map.h"

namespace gnnpart::ml {
namespace {

// Weight of u in the constraints where its block is overloaded.
Weight relief(const PartitionedGraph& p, const BlockLimits& limits, NodeID u) {
  const BlockID b = p.block(u);
  Weight sum = 0;
  for (int c = 0; c < p.ncon(); ++c)
    if (p.block_weight(b, c) > limits.max(b, c))
      sum += p.graph().vertex_weight(u, c);
  return sum;
}

// Best block for u other than its own: most connected among those with room, else the block
// with room that has the lowest weight in constraint 0. Returns (connection, block).
std::pair<Weight, BlockID> best_target(const PartitionedGraph& p, const BlockLimits& limits,
                                       NodeID u, RatingMap<BlockID>& map) {
  const CsrGraph& g = p.graph();
  const BlockID own = p.block(u);
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
    map.add(p.block(g.edge_target(e)), g.edge_weight(e));
  BlockID best = kInvalidBlockID;
  Weight best_conn = -1;
  for (BlockID b : map.keys()) {
    if (b == own)
      continue;
    const Weight conn = map.get(b);
    if (conn > best_conn && p.fits(u, b, limits)) {
      best = b;
      best_conn = conn;
    }
  }
  map.clear();
  if (best != kInvalidBlockID)
    return {best_conn, best};
  for (BlockID b = 0; b < p.k(); ++b) {
    if (b == own || !p.fits(u, b, limits))
      continue;
    if (best == kInvalidBlockID || p.block_weight(b) < p.block_weight(best))
      best = b;
  }
  return {0, best};
}

// How much moving u to `to` would raise the cut: its edges into its own block minus those into
// `to`.
Weight cut_increase_of(const PartitionedGraph& p, NodeID u, BlockID to) {
  const CsrGraph& g = p.graph();
  const BlockID own = p.block(u);
  Weight delta = 0;
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
    const BlockID b = p.block(g.edge_target(e));
    if (b == own)
      delta += g.edge_weight(e);
    else if (b == to)
      delta -= g.edge_weight(e);
  }
  return delta;
}

} // namespace

bool rebalance(PartitionedGraph& p, const BlockLimits& limits, Weight* cut_increase) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  RatingMap<BlockID> map(p.k());
  for (int round = 0; round < 16; ++round) {
    std::vector<char> over(p.k(), 0);
    BlockID overloaded = 0;
    for (BlockID b = 0; b < p.k(); ++b) {
      over[b] = p.overloaded(b, limits);
      overloaded += over[b];
    }
    if (overloaded == 0)
      return true;
    // (score, vertex, target): score = loss per unit of relieved weight, smallest first.
    std::vector<std::tuple<double, NodeID, BlockID>> candidates;
    for (NodeID u = 0; u < n; ++u) {
      if (!over[p.block(u)])
        continue;
      const Weight r = relief(p, limits, u);
      if (r <= 0)
        continue;
      auto [conn, to] = best_target(p, limits, u, map);
      if (to == kInvalidBlockID)
        continue;
      Weight internal = 0;
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
        if (p.block(g.edge_target(e)) == p.block(u))
          internal += g.edge_weight(e);
      const double loss = static_cast<double>(internal - conn);
      candidates.emplace_back(loss >= 0 ? loss / r : loss * r, u, to);
    }
    if (candidates.empty())
      return false;
    // A min-heap, not a sort: the overload is usually relieved by a small share of them.
    const auto later = [](const auto& a, const auto& b) { return a > b; };
    std::make_heap(candidates.begin(), candidates.end(), later);
    bool moved = false;
    while (!candidates.empty() && overloaded > 0) {
      std::pop_heap(candidates.begin(), candidates.end(), later);
      const auto [score, u, to] = candidates.back();
      candidates.pop_back();
      const BlockID from = p.block(u);
      if (relief(p, limits, u) <= 0)
        continue; // its block is fine by now
      // The move's cut change, counted before it is made (only when asked for).
      auto try_move = [&](BlockID target) {
        const Weight delta = cut_increase != nullptr ? cut_increase_of(p, u, target) : 0;
        if (!p.try_move(u, target, limits))
          return false;
        if (cut_increase != nullptr)
          *cut_increase += delta;
        return true;
      };
      bool done = try_move(to);
      if (!done) {
        const BlockID other = best_target(p, limits, u, map).second;
        done = other != kInvalidBlockID && try_move(other);
      }
      if (done) {
        moved = true;
        if (!p.overloaded(from, limits))
          --overloaded;
      }
    }
    if (!moved)
      return p.balanced(limits);
  }
  return p.balanced(limits);
}

void fill_empty_blocks(PartitionedGraph& p, const BlockLimits& limits) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  if (n < p.k())
    return;
  std::vector<NodeID> count(p.k(), 0);
  for (NodeID u = 0; u < n; ++u)
    ++count[p.block(u)];
  for (BlockID b = 0; b < p.k(); ++b) {
    if (count[b] > 0)
      continue;
    // Take the vertex with the least internal connection from a block with >= 2 vertices.
    NodeID best = kInvalidNodeID;
    Weight best_internal = 0;
    for (NodeID u = 0; u < n; ++u) {
      if (count[p.block(u)] < 2 || !p.fits(u, b, limits))
        continue;
      Weight internal = 0;
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
        if (p.block(g.edge_target(e)) == p.block(u))
          internal += g.edge_weight(e);
      if (best == kInvalidNodeID || internal < best_internal) {
        best = u;
        best_internal = internal;
      }
    }
    if (best == kInvalidNodeID)
      continue;
    --count[p.block(best)];
    p.move(best, b);
    ++count[b];
  }
}

} // namespace gnnpart::ml
