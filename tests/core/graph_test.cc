#include "core/graph.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/parallel.h"
#include "core/partition.h"
#include "core/random.h"
#include "core_test_util.h"

namespace gnnpart {
namespace {

TEST(CsrGraph, RejectsInconsistentArrays) {
  EXPECT_THROW(CsrGraph({}, {}), InvalidParameter);
  EXPECT_THROW(CsrGraph({1, 2}, {0, 1}), InvalidParameter);
  EXPECT_THROW(CsrGraph({0, 1}, {0, 1}), InvalidParameter);
  EXPECT_THROW(CsrGraph({0, 1, 2}, {1, 0}, {1}), InvalidParameter);
  EXPECT_THROW(CsrGraph({0, 1, 2}, {1, 0}, {}, 2), InvalidParameter);
  EXPECT_THROW(CsrGraph({0, 1, 2}, {1, 0}, {}, 1, {1}), InvalidParameter);
  EXPECT_THROW(CsrGraph({0, 1, 2}, {1, 0}, {}, 0, {1, 1}), InvalidParameter);
}

TEST(CsrGraph, WeightsAndCopy) {
  CsrGraph g({0, 1, 2}, {1, 0}, {4, 4}, 2, {1, 2, 3, 4});
  EXPECT_EQ(g.num_nodes(), 2u);
  EXPECT_EQ(g.num_edges(), 1u);
  EXPECT_EQ(g.vertex_weight(1, 0), 3);
  EXPECT_EQ(g.vertex_weight(1, 1), 4);
  EXPECT_EQ(g.total_vertex_weight(0), 4);
  EXPECT_EQ(g.total_vertex_weight(1), 6);
  EXPECT_EQ(g.edge_weight(0), 4);
  const CsrGraph c = g.copy();
  EXPECT_TRUE(std::ranges::equal(c.vertex_weights(), g.vertex_weights()));
  EXPECT_EQ(c.ncon(), 2);
  g.set_vertex_weights(1, {});
  EXPECT_EQ(g.total_vertex_weight(), 2);
}

TEST(FindAsymmetricVertex, DetectsMissingReverseWeightAndMultiplicity) {
  // Symmetric path 0-1-2.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 1, 3, 4}, {1, 0, 2, 1})), kInvalidNodeID);
  // 2 -> 1 missing: vertex 1 has an entry to 2 without a reverse.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 1, 3, 3}, {1, 0, 2})), 1u);
  // Different weights in the two directions: the first vertex is reported.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 1, 2}, {1, 0}, {2, 3})), 0u);
  // Same target twice in one direction, once in the other.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 2, 3}, {1, 1, 0})), 0u);
  // Target out of range.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 0, 1}, {5})), 1u);
  // Self loops are their own reverse.
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph({0, 1}, {0})), kInvalidNodeID);
  EXPECT_EQ(find_asymmetric_vertex(CsrGraph()), kInvalidNodeID);
}

TEST(FindAsymmetricVertex, FirstAsymmetricVertexOfALargeGraph) {
  Rng rng(derive_seed(21));
  const EdgeList list = testing::random_edge_list(rng, 5000, 40000, false);
  const CsrGraph g = build_csr(list);
  EXPECT_TRUE(run_with_threads(2, [&] { return is_symmetric(g); }));
  // Drop one entry u -> v: then v is the only vertex with an entry lacking its reverse.
  std::vector<EdgeID> offsets(g.offsets().begin(), g.offsets().end());
  std::vector<NodeID> adjacency(g.adjacency().begin(), g.adjacency().end());
  NodeID late = 4000;
  while (g.degree(late) == 0)
    ++late;
  const NodeID removed_target = adjacency[offsets[late]];
  adjacency.erase(adjacency.begin() + offsets[late]);
  for (NodeID u = late + 1; u < offsets.size(); ++u)
    --offsets[u];
  const CsrGraph broken(std::move(offsets), std::move(adjacency));
  // removed_target still lists `late`; `late` no longer lists removed_target.
  EXPECT_EQ(run_with_threads(2, [&] { return find_asymmetric_vertex(broken); }), removed_target);
}

TEST(MaxBlockWeight, FloorOfSlackTimesPerfect) {
  EXPECT_EQ(max_block_weight(100, 1, 0.03), 103);
  EXPECT_EQ(max_block_weight(100, 2, 0.03), 51);   // floor(1.03 * 50) = 51
  EXPECT_EQ(max_block_weight(101, 2, 0.0), 51);    // ceil(101 / 2)
  EXPECT_EQ(max_block_weight(10, 3, 0.1), 4);      // floor(1.1 * 4) = 4
  EXPECT_EQ(max_block_weight(10, 3, 0.25), 5);     // floor(1.25 * 4) = 5
  EXPECT_EQ(max_block_weight(1000, 4, 0.03), 257); // floor(1.03 * 250) = 257
  EXPECT_EQ(max_block_weight(0, 4, 0.03), 0);
}

TEST(Partition, BlockWeightsAndChecks) {
  CsrGraph g({0, 0, 0, 0}, {}, {}, 2, {1, 10, 2, 20, 3, 30});
  Partition p{2, {1, 0, 1}};
  EXPECT_EQ(block_weights(g, p), (std::vector<Weight>{2, 20, 4, 40}));
  EXPECT_THROW(check_partition(Partition{2, {0, 2, 1}}, 3), InvalidParameter);
  EXPECT_THROW(check_partition(Partition{2, {0, 1}}, 3), InvalidParameter);
  EXPECT_THROW(check_partition(Partition{0, {}}, 0), InvalidParameter);
}

// Boost.Graph as an independent reference for degrees, edge counts and components.
TEST(GraphBuilder, AgreesWithBoostGraph) {
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Rng rng(derive_seed(22));
  for (int round = 0; round < 10; ++round) {
    const NodeID n = 1 + static_cast<NodeID>(rng.below(300));
    const EdgeList list = testing::random_edge_list(rng, n, rng.below(n), false);
    const CsrGraph g = build_csr(list);
    // Boost from the raw list with self loops and duplicates removed by a std::set.
    std::set<std::pair<NodeID, NodeID>> simple;
    for (std::size_t i = 0; i < list.sources.size(); ++i) {
      if (list.sources[i] != list.targets[i])
        simple.emplace(std::min(list.sources[i], list.targets[i]),
                       std::max(list.sources[i], list.targets[i]));
    }
    BoostGraph reference(n);
    for (auto [u, v] : simple)
      boost::add_edge(u, v, reference);
    EXPECT_EQ(g.num_edges(), boost::num_edges(reference));
    for (NodeID u = 0; u < n; ++u)
      EXPECT_EQ(g.degree(u), boost::degree(u, reference));
    std::vector<int> component(n);
    const int components = boost::connected_components(reference, component.data());
    // Components of the CSR by union-find over its adjacency.
    std::vector<NodeID> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](NodeID x) {
      while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
      return x;
    };
    for (NodeID u = 0; u < n; ++u) {
      for (NodeID v : g.neighbors(u))
        parent[find(u)] = find(v);
    }
    int roots = 0;
    for (NodeID u = 0; u < n; ++u) {
      roots += find(u) == u;
      for (NodeID v : g.neighbors(u))
        EXPECT_EQ(component[u], component[v]);
    }
    EXPECT_EQ(roots, components);
  }
}

TEST(Random, DeriveSeedAndRngAreDeterministic) {
  EXPECT_EQ(derive_seed(1, 2, 3), derive_seed(1, 2, 3));
  EXPECT_NE(derive_seed(1, 2, 3), derive_seed(1, 3, 2));
  EXPECT_NE(derive_seed(1), derive_seed(2));
  Rng a(derive_seed(5, 1)), b(derive_seed(5, 1)), c(derive_seed(5, 2));
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a();
    EXPECT_EQ(x, b());
    differs |= x != c();
  }
  EXPECT_TRUE(differs);
  Rng r(7);
  std::vector<int> hits(10, 0);
  for (int i = 0; i < 10000; ++i) {
    const auto x = r.below(10);
    ASSERT_LT(x, 10u);
    ++hits[x];
    const double d = r.uniform();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
  }
  for (int h : hits)
    EXPECT_GT(h, 800); // each of 10 values near 1000
}

} // namespace
} // namespace gnnpart
