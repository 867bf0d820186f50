// Component-aware bisection (component_bisection.h): components checked against a BFS, the
// bisection balanced with every component but the largest whole on one side, km1 recomputed by
// brute force, deterministic.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include "core/parallel.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/component_bisection.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

using testing::options;

// Components by BFS over vertex -> nets -> pins, numbered in order of smallest vertex.
std::vector<NodeID> bfs_components(const Hypergraph& hg) {
  std::vector<NodeID> component(hg.num_nodes(), kInvalidNodeID);
  NodeID next = 0;
  for (NodeID s = 0; s < hg.num_nodes(); ++s) {
    if (component[s] != kInvalidNodeID)
      continue;
    std::deque<NodeID> queue{s};
    component[s] = next;
    while (!queue.empty()) {
      const NodeID u = queue.front();
      queue.pop_front();
      for (NetID e : hg.incident_nets(u))
        for (NodeID v : hg.pins(e))
          if (component[v] == kInvalidNodeID) {
            component[v] = next;
            queue.push_back(v);
          }
    }
    ++next;
  }
  return component;
}

// The column-net model of citeseer: many components (438), the largest well below the whole.
Hypergraph many_components(NodeID* giant_share_percent) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  NodeID count = 0;
  const auto component = hypergraph_components(model, &count);
  std::vector<NodeID> size(count, 0);
  for (NodeID c : component)
    ++size[c];
  *giant_share_percent = 100 * *std::max_element(size.begin(), size.end()) / model.num_nodes();
  return model;
}

TEST(ComponentBisection, ComponentsMatchABreadthFirstSearch) {
  Rng rng(3);
  for (int round = 0; round < 5; ++round) {
    const Hypergraph hg = testing::random_hypergraph(200, 60 + 20 * round, 3, 6, 1, 1, rng);
    NodeID count = 0;
    const auto got = hypergraph_components(hg, &count);
    const auto want = bfs_components(hg);
    EXPECT_EQ(got, want);
    EXPECT_EQ(count, *std::max_element(want.begin(), want.end()) + 1);
  }
}

TEST(ComponentBisection, BalancedWithSmallComponentsWholeAndDeterministic) {
  NodeID giant_percent = 0;
  const Hypergraph model = many_components(&giant_percent);
  ASSERT_LT(giant_percent, 90u); // citeseer: the largest holds 2120 of 3327 vertices
  NodeID count = 0;
  const auto component = hypergraph_components(model, &count);
  for (int threads : {1, 2}) {
    const PartitionOptions o = options(2, 7, threads);
    const HgContext ctx = make_context(o);
    const BlockLimits limits = uniform_limits(model, 2, o.epsilon);
    auto run = [&] {
      return run_with_threads(threads, [&] {
        Km1GainCache cache;
        return component_bisection(model, ctx, limits, 7, cache);
      });
    };
    const std::vector<BlockID> blocks = run();
    ASSERT_EQ(blocks.size(), model.num_nodes());
    EXPECT_EQ(run(), blocks);
    const auto m = testing::check(model, Partition{2, blocks}, o);
    // Every component but the largest lies in one block: km1 comes from the largest only.
    std::vector<std::set<BlockID>> sides(count);
    for (NodeID u = 0; u < model.num_nodes(); ++u)
      sides[component[u]].insert(blocks[u]);
    NodeID split = 0;
    for (const auto& s : sides)
      split += s.size() > 1;
    EXPECT_LE(split, 1u);
    EXPECT_GT(m.km1, 0);
  }
}

TEST(ComponentBisection, DoesNotApplyToOneComponentOrLittleFiller) {
  // A path: one component.
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (NodeID u = 0; u + 1 < 50; ++u) {
    pins.push_back(u);
    pins.push_back(u + 1);
    offsets.push_back(pins.size());
  }
  const Hypergraph path(50, offsets, pins);
  const PartitionOptions o = options(2, 1);
  const HgContext ctx = make_context(o);
  Km1GainCache cache;
  EXPECT_TRUE(component_bisection(path, ctx, uniform_limits(path, 2, o.epsilon), 1, cache).empty());
  // The same path and one isolated vertex: 1 of 51 is below epsilon = 3% of the weight.
  const Hypergraph path_and_one(51, offsets, pins);
  EXPECT_TRUE(
      component_bisection(path_and_one, ctx, uniform_limits(path_and_one, 2, o.epsilon), 1, cache)
          .empty());
}

} // namespace
} // namespace gnnpart::hg
