#pragma once
// Per-block send and receive volumes from their definitions, for the bottleneck tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/hypergraph.h"
#include "core/types.h"
#include "hypergraph/block_volumes.h"

namespace gnnpart::hg {

struct Volumes {
  std::vector<Weight> send, recv;
  Weight total = 0;
  Weight max() const {
    Weight best = 0;
    for (std::size_t b = 0; b < send.size(); ++b)
      best = std::max(best, send[b] + recv[b]);
    return best;
  }
};

// 6 vertices, 5 weighted nets; owners are pins chosen by hand (not the first pin).
inline Hypergraph tiny_owned_hypergraph() {
  return Hypergraph(6, {0, 3, 5, 9, 11, 14}, {0, 1, 2, 2, 3, 1, 3, 4, 5, 5, 0, 4, 2, 0},
                    {1, 2, 3, 1, 5});
}
inline const std::vector<NodeID> kTinyOwners{1, 3, 5, 0, 2};

// Per-block send / receive volume of a hypergraph with net owners, from the definition.
inline Volumes brute_force(const Hypergraph& hg, std::span<const NodeID> owners,
                           std::span<const BlockID> blocks, BlockID k) {
  Volumes v{std::vector<Weight>(k, 0), std::vector<Weight>(k, 0)};
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    std::set<BlockID> touched;
    for (const NodeID u : hg.pins(e))
      touched.insert(blocks[u]);
    const BlockID owner = blocks[owners[e]];
    for (const BlockID b : touched) {
      if (b == owner)
        continue;
      v.send[owner] += hg.net_weight(e);
      v.recv[b] += hg.net_weight(e);
      v.total += hg.net_weight(e);
    }
  }
  return v;
}

// The same on a graph's 1D row split: u's row goes once to every other block holding a
// neighbour of u.
inline Volumes graph_volumes(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k) {
  Volumes v{std::vector<Weight>(k, 0), std::vector<Weight>(k, 0)};
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    std::set<BlockID> others;
    for (const NodeID w : graph.neighbors(u))
      if (blocks[w] != blocks[u])
        others.insert(blocks[w]);
    v.send[blocks[u]] += static_cast<Weight>(others.size());
    for (const BlockID b : others)
      v.recv[b] += 1;
    v.total += static_cast<Weight>(others.size());
  }
  return v;
}

// The tracker's send, receive, total and maximum against `expected`.
inline void expect_tracked(const BlockVolumes& tracked, const Volumes& expected) {
  for (BlockID b = 0; b < tracked.k(); ++b) {
    EXPECT_EQ(tracked.send(b), expected.send[b]) << "block " << b;
    EXPECT_EQ(tracked.recv(b), expected.recv[b]) << "block " << b;
  }
  EXPECT_EQ(tracked.total(), expected.total);
  EXPECT_EQ(tracked.max_volume(), expected.max());
}

} // namespace gnnpart::hg
