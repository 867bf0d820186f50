// The rebalancer with a gain cache rates the vertices of overloaded blocks from their rows, where
// that gives the answer of their adjacency: the same moves, so the same partition and the same
// cut increase as without a cache, with unit, positive and partly zero edge weights (where it
// reads the adjacency), and the cache stays current.
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/rebalancer.h"

namespace gnnpart {
namespace {

using ml_test::random_graph;

// `plain`'s edges with symmetric weights 0 to 3 (a quarter of them 0).
CsrGraph with_some_zero_weights(const CsrGraph& plain) {
  std::vector<Weight> weights(plain.num_directed_edges());
  for (NodeID u = 0; u < plain.num_nodes(); ++u)
    for (EdgeID e = plain.first_edge(u); e < plain.last_edge(u); ++e) {
      const NodeID v = plain.edge_target(e);
      weights[e] = static_cast<Weight>(splitmix64(std::min(u, v) * 7919ULL + std::max(u, v)) % 4);
    }
  const auto offsets = plain.offsets();
  const auto adjacency = plain.adjacency();
  return CsrGraph({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()},
                  std::move(weights));
}

// Blocks as ranges of ids, the first holding 60% of the vertices: overloaded.
std::vector<BlockID> lopsided(NodeID n, BlockID k) {
  std::vector<BlockID> blocks(n);
  const NodeID first = n / 5 * 3;
  for (NodeID u = 0; u < n; ++u)
    blocks[u] = u < first ? 0
                          : 1 + static_cast<BlockID>(static_cast<std::uint64_t>(u - first) *
                                                     (k - 1) / (n - first));
  return blocks;
}

TEST(RebalancerRows, SameMovesAsTheAdjacency) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(random_graph(3000, 12000, 6));
  graphs.push_back(ml_test::weighted_power_law_graph());
  graphs.push_back(with_some_zero_weights(random_graph(3000, 12000, 7)));
  for (const CsrGraph& g : graphs)
    for (const BlockID k : {2u, 8u, 64u}) {
      const BlockLimits limits = uniform_limits(g, k, 0.03);
      ml::PartitionedGraph plain(g, k, lopsided(g.num_nodes(), k));
      ml::PartitionedGraph cached(g, k, lopsided(g.num_nodes(), k));
      ASSERT_FALSE(plain.balanced(limits));
      ml::GainCache cache(g, cached.blocks(), k);
      Weight plain_loss = 0, cached_loss = 0;
      EXPECT_TRUE(ml::rebalance(plain, limits, &plain_loss));
      EXPECT_TRUE(ml::rebalance(cached, limits, &cached_loss, &cache));
      EXPECT_EQ(std::vector<BlockID>(plain.blocks().begin(), plain.blocks().end()),
                std::vector<BlockID>(cached.blocks().begin(), cached.blocks().end()))
          << "k " << k;
      EXPECT_EQ(plain_loss, cached_loss);
      const ml::GainCache fresh(g, cached.blocks(), k);
      for (NodeID u = 0; u < g.num_nodes(); ++u)
        for (BlockID b = 0; b < k; ++b)
          ASSERT_EQ(cache.conn(u, b), fresh.conn(u, b)) << "vertex " << u << " block " << b;
    }
}

} // namespace
} // namespace gnnpart
