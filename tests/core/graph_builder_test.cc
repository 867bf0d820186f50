#include "core/graph_builder.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/errors.h"
#include "core/parallel.h"
#include "core_test_util.h"

namespace gnnpart {
namespace {

std::vector<NodeID> neighbors_of(const CsrGraph& g, NodeID u) {
  auto span = g.neighbors(u);
  return {span.begin(), span.end()};
}

TEST(GraphBuilder, SymmetrizesDropsSelfLoopsAndDuplicates) {
  // 0-1 twice (once reversed), a self loop on 2, 1-2, and an isolated vertex 3.
  EdgeList list{4, {0, 1, 2, 1}, {1, 0, 2, 2}, {}};
  BuildStats stats;
  const CsrGraph g = build_csr(list, {}, &stats);
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_edges(), 2u);
  EXPECT_EQ(neighbors_of(g, 0), (std::vector<NodeID>{1}));
  EXPECT_EQ(neighbors_of(g, 1), (std::vector<NodeID>{0, 2}));
  EXPECT_EQ(neighbors_of(g, 2), (std::vector<NodeID>{1}));
  EXPECT_EQ(g.degree(3), 0u);
  EXPECT_FALSE(g.has_edge_weights());
  EXPECT_EQ(stats.self_loops_dropped, 1u);
  EXPECT_EQ(stats.duplicates_dropped, 2u); // 0->1 and 1->0 each appear twice
  EXPECT_TRUE(is_symmetric(g));
}

TEST(GraphBuilder, KeepsLargestWeightOfParallelEdges) {
  EdgeList list{3, {0, 1, 0, 2}, {1, 0, 1, 1}, {3, 7, 5, 2}};
  BuildStats stats;
  const CsrGraph g = build_csr(list, {}, &stats);
  ASSERT_TRUE(g.has_edge_weights());
  ASSERT_EQ(g.degree(0), 1u);
  EXPECT_EQ(g.edge_weight(g.first_edge(0)), 7);
  ASSERT_EQ(neighbors_of(g, 1), (std::vector<NodeID>{0, 2}));
  EXPECT_EQ(g.edge_weight(g.first_edge(1)), 7);
  EXPECT_EQ(g.edge_weight(g.first_edge(1) + 1), 2);
  EXPECT_EQ(stats.duplicates_dropped, 4u);
  EXPECT_TRUE(is_symmetric(g));
}

TEST(GraphBuilder, OptionsKeepSelfLoopsAndDuplicates) {
  EdgeList list{2, {0, 0, 1}, {0, 1, 0}, {}};
  BuildOptions options;
  options.drop_self_loops = false;
  options.dedupe = false;
  BuildStats stats;
  const CsrGraph g = build_csr(list, options, &stats);
  // Self loop stored once; 0-1 symmetrized from both input directions: two entries each.
  EXPECT_EQ(neighbors_of(g, 0), (std::vector<NodeID>{0, 1, 1}));
  EXPECT_EQ(neighbors_of(g, 1), (std::vector<NodeID>{0, 0}));
  EXPECT_EQ(stats.self_loops_dropped, 0u);
  EXPECT_EQ(stats.duplicates_dropped, 0u);
}

TEST(GraphBuilder, WithoutSymmetrizeTakesInputAsBothDirections) {
  EdgeList list{3, {0, 1, 1, 2, 0}, {1, 0, 2, 1, 1}, {}};
  BuildOptions options;
  options.symmetrize = false;
  BuildStats stats;
  const CsrGraph g = build_csr(list, options, &stats);
  EXPECT_EQ(g.num_directed_edges(), 4u);
  EXPECT_EQ(neighbors_of(g, 0), (std::vector<NodeID>{1}));
  EXPECT_EQ(neighbors_of(g, 1), (std::vector<NodeID>{0, 2}));
  EXPECT_EQ(stats.duplicates_dropped, 1u);
  // One direction only stays asymmetric.
  EdgeList one_way{2, {0}, {1}, {}};
  EXPECT_EQ(find_asymmetric_vertex(build_csr(one_way, options)), 0u);
}

TEST(GraphBuilder, RejectsBadInput) {
  EXPECT_THROW(build_csr(EdgeList{3, {0, 1}, {1}, {}}), InvalidParameter);
  EXPECT_THROW(build_csr(EdgeList{3, {0, 1}, {1, 2}, {1}}), InvalidParameter);
  EXPECT_THROW(build_csr(EdgeList{3, {0, 3}, {1, 2}, {}}), InvalidParameter);
  EXPECT_THROW(build_csr(EdgeList{3, {0, 1}, {1, 7}, {}}), InvalidParameter);
  EXPECT_THROW(build_csr(EdgeList{0, {0}, {0}, {}}), InvalidParameter);
  try {
    build_csr(EdgeList{3, {0, 1, 2}, {1, 5, 0}, {}});
    FAIL() << "expected InvalidParameter";
  } catch (const InvalidParameter& e) {
    EXPECT_NE(std::string(e.what()).find("edge 1"), std::string::npos) << e.what();
  }
}

TEST(GraphBuilder, EmptyInputs) {
  const CsrGraph none = build_csr(EdgeList{});
  EXPECT_EQ(none.num_nodes(), 0u);
  EXPECT_EQ(none.num_edges(), 0u);
  const CsrGraph isolated = build_csr(EdgeList{5, {}, {}, {}});
  EXPECT_EQ(isolated.num_nodes(), 5u);
  EXPECT_EQ(isolated.num_edges(), 0u);
}

TEST(GraphBuilder, MatchesReferenceOnRandomInputs) {
  Rng rng(derive_seed(11));
  for (int round = 0; round < 40; ++round) {
    const NodeID n = 1 + static_cast<NodeID>(rng.below(80));
    const bool weighted = round % 2 == 1;
    const EdgeList list = testing::random_edge_list(rng, n, rng.below(300), weighted);
    BuildStats stats;
    const CsrGraph g = run_with_threads(2, [&] { return build_csr(list, {}, &stats); });
    const auto reference = testing::reference_adjacency(list);
    EdgeID loops = 0;
    for (std::size_t i = 0; i < list.sources.size(); ++i)
      loops += list.sources[i] == list.targets[i];
    EXPECT_EQ(stats.self_loops_dropped, loops);
    EXPECT_EQ(stats.duplicates_dropped, 2 * (list.sources.size() - loops) - g.num_directed_edges());
    ASSERT_EQ(g.num_nodes(), n);
    EXPECT_EQ(g.has_edge_weights(), weighted);
    for (NodeID u = 0; u < n; ++u) {
      ASSERT_EQ(g.degree(u), reference[u].size());
      EdgeID e = g.first_edge(u);
      for (const auto& [v, w] : reference[u]) {
        EXPECT_EQ(g.edge_target(e), v);
        EXPECT_EQ(g.edge_weight(e), weighted ? w : 1);
        ++e;
      }
    }
    EXPECT_TRUE(is_symmetric(g));
  }
}

TEST(GraphBuilder, DeterministicAcrossThreadCounts) {
  Rng rng(derive_seed(12));
  const EdgeList list = testing::random_edge_list(rng, 20000, 200000, true);
  const CsrGraph one = run_with_threads(1, [&] { return build_csr(list); });
  const CsrGraph two = run_with_threads(2, [&] { return build_csr(list); });
  const CsrGraph again = run_with_threads(2, [&] { return build_csr(list); });
  for (const CsrGraph* g : {&two, &again}) {
    EXPECT_TRUE(std::ranges::equal(one.offsets(), g->offsets()));
    EXPECT_TRUE(std::ranges::equal(one.adjacency(), g->adjacency()));
    EXPECT_TRUE(std::ranges::equal(one.edge_weights(), g->edge_weights()));
  }
}

} // namespace
} // namespace gnnpart
