// The graph engine's parallel sections (gain cache build, block weights, the rebalancer's
// rating) give the same result for every thread count, and that result is the plain sequential
// recomputation.
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "core/parallel.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/rebalancer.h"

namespace gnnpart::ml {
namespace {

// 40000 vertices: several parallel ranges in every section. Edge weights 1..3, vertex weights
// 1..4 in constraint 0 and 0/1 in constraint 1.
CsrGraph weighted_graph() {
  CsrGraph g = ml_test::random_graph(40000, 200000, 17);
  std::vector<Weight> edge_weights(g.num_directed_edges());
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
      const NodeID v = g.edge_target(e);
      edge_weights[e] = 1 + (static_cast<Weight>(u) + v) % 3; // symmetric
    }
  g.set_edge_weights(std::move(edge_weights));
  std::vector<Weight> vertex_weights(2 * static_cast<std::size_t>(g.num_nodes()));
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    vertex_weights[2 * u] = 1 + u % 4;
    vertex_weights[2 * u + 1] = u % 5 == 0 ? 1 : 0;
  }
  g.set_vertex_weights(2, std::move(vertex_weights));
  return g;
}

std::vector<BlockID> random_blocks(NodeID n, BlockID k, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<BlockID> blocks(n);
  for (BlockID& b : blocks)
    b = static_cast<BlockID>(rng.below(k));
  return blocks;
}

TEST(ParallelSections, GainCacheRowsAreTheSameForAnyThreadCount) {
  const CsrGraph g = weighted_graph();
  ASSERT_TRUE(GainCache::supports(g));
  for (const BlockID k : {BlockID{4}, BlockID{32}}) { // mostly dense rows, mostly lists
    const std::vector<BlockID> blocks = random_blocks(g.num_nodes(), k, 3);
    const GainCache one = run_with_threads(1, [&] { return GainCache(g, blocks, k); });
    for (const int threads : {2, 4}) {
      const GainCache many = run_with_threads(threads, [&] { return GainCache(g, blocks, k); });
      for (NodeID u = 0; u < g.num_nodes(); ++u) {
        ASSERT_EQ(many.row_size(u), one.row_size(u)) << "u=" << u;
        std::vector<GainCache::Entry> a, b;
        one.append_row(u, a);
        many.append_row(u, b);
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          ASSERT_EQ(a[i].block, b[i].block) << "u=" << u << " i=" << i;
          ASSERT_EQ(a[i].conn, b[i].conn) << "u=" << u << " i=" << i;
        }
      }
    }
    // Against the adjacency, with the edge weights.
    for (NodeID u = 0; u < g.num_nodes(); u += 97) {
      std::vector<Weight> conn(k, 0);
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
        conn[blocks[g.edge_target(e)]] += g.edge_weight(e);
      for (BlockID b = 0; b < k; ++b)
        EXPECT_EQ(one.conn(u, b), conn[b]) << "k=" << k << " u=" << u << " b=" << b;
    }
  }
}

TEST(ParallelSections, GainCacheSupportsSumsEveryEdgeWeight) {
  CsrGraph g = ml_test::random_graph(30000, 60000, 5);
  std::vector<Weight> weights(g.num_directed_edges(), 1);
  g.set_edge_weights(weights);
  EXPECT_TRUE(run_with_threads(4, [&] { return GainCache::supports(g); }));
  // One heavy edge (both directions) pushes the total to 2^31.
  const NodeID u = 12345;
  ASSERT_GT(g.degree(u), 0u);
  const EdgeID e = g.first_edge(u);
  const NodeID v = g.edge_target(e);
  const Weight heavy = (Weight{1} << 30) - static_cast<Weight>(weights.size()) / 2 + 1;
  weights[e] = heavy;
  for (EdgeID f = g.first_edge(v); f < g.last_edge(v); ++f)
    if (g.edge_target(f) == u)
      weights[f] = heavy;
  g.set_edge_weights(std::move(weights));
  EXPECT_FALSE(run_with_threads(4, [&] { return GainCache::supports(g); }));
  EXPECT_FALSE(run_with_threads(1, [&] { return GainCache::supports(g); }));
}

TEST(ParallelSections, BlockWeightsMatchTheSequentialSum) {
  const CsrGraph g = weighted_graph();
  const BlockID k = 8;
  const std::vector<BlockID> blocks = random_blocks(g.num_nodes(), k, 11);
  std::vector<Weight> expected(2 * k, 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (int c = 0; c < 2; ++c)
      expected[2 * blocks[u] + c] += g.vertex_weight(u, c);
  for (const int threads : {1, 2, 4}) {
    const PartitionedGraph p =
        run_with_threads(threads, [&] { return PartitionedGraph(g, k, blocks); });
    for (BlockID b = 0; b < k; ++b)
      for (int c = 0; c < 2; ++c)
        EXPECT_EQ(p.block_weight(b, c), expected[2 * b + c]) << threads << " threads";
  }
}

TEST(ParallelSections, RebalancerIsTheSameForAnyThreadCount) {
  const CsrGraph g = weighted_graph();
  const BlockID k = 8;
  // Blocks 0 and 1 hold twice their share: many candidates, rated in parallel.
  std::vector<BlockID> start = random_blocks(g.num_nodes(), k, 7);
  for (NodeID u = 0; u < g.num_nodes(); u += 3)
    start[u] = u % 2;
  const BlockLimits limits = uniform_limits(g, k, 0.03);
  std::vector<BlockID> first;
  Weight first_loss = 0;
  for (const int threads : {1, 2, 4}) {
    PartitionedGraph p(g, k, start);
    ASSERT_FALSE(p.balanced(limits));
    Weight loss = 0;
    const bool ok = run_with_threads(threads, [&] { return rebalance(p, limits, &loss); });
    ASSERT_TRUE(ok);
    EXPECT_TRUE(p.balanced(limits));
    // The reported loss is the cut's real change.
    EXPECT_EQ(edge_cut(g, p.blocks()) - edge_cut(g, start), loss);
    const std::vector<BlockID> blocks(p.blocks().begin(), p.blocks().end());
    if (threads == 1) {
      first = blocks;
      first_loss = loss;
    } else {
      EXPECT_EQ(blocks, first) << threads << " threads";
      EXPECT_EQ(loss, first_loss) << threads << " threads";
    }
  }
}

} // namespace
} // namespace gnnpart::ml
