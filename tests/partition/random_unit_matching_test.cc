// The fast preset's matching of unweighted levels (CoarseningContext::random_unit_matching,
// coarsening/matching.cc): clusters of one or two adjacent vertices, maximal (no edge between
// two unmatched vertices), each unmatched visit taking a free neighbour of least degree; the
// same for a seed at any thread count and other matchings for other seeds; levels with weights
// matched as without it.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "core/parallel.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/coarsening/matching.h"

namespace gnnpart::ml {
namespace {

CoarseningContext unit_context(bool random_unit) {
  CoarseningContext ctx;
  ctx.algorithm = ClusteringAlgorithm::kMatching;
  ctx.random_unit_matching = random_unit;
  ctx.two_hop = false; // the matching alone
  return ctx;
}

// Checks clusters as a matching of g: labels are the smaller member, pairs adjacent, and no edge
// joins two singletons. Returns the number of pairs.
NodeID expect_maximal_matching(const CsrGraph& g, const std::vector<NodeID>& cluster) {
  std::vector<NodeID> size(g.num_nodes(), 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    ++size[cluster[u]];
  NodeID pairs = 0;
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    EXPECT_LE(size[cluster[u]], 2u) << "vertex " << u;
    if (cluster[u] != u) {
      ++pairs;
      EXPECT_EQ(cluster[cluster[u]], cluster[u]) << "vertex " << u;
      const auto nb = g.neighbors(u);
      EXPECT_NE(std::find(nb.begin(), nb.end(), cluster[u]), nb.end())
          << "vertex " << u << " paired with a non-neighbour";
    }
  }
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    if (size[cluster[u]] == 1)
      for (const NodeID v : g.neighbors(u))
        EXPECT_FALSE(size[cluster[v]] == 1) << "edge " << u << "-" << v << " left unmatched";
  return pairs;
}

TEST(RandomUnitMatching, MaximalDeterministicAndSeeded) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(30, 40));
  graphs.push_back(ml_test::random_graph(2000, 7000, 9));
  graphs.push_back(ml_test::star_graph(200));
  for (const CsrGraph& g : graphs) {
    SCOPED_TRACE(testing::Message() << "n " << g.num_nodes());
    const std::vector<Weight> bound{g.num_nodes()};
    const auto run = [&] { return heavy_edge_matching(g, bound, unit_context(true), 5); };
    const std::vector<NodeID> one = run_with_threads(1, run);
    const NodeID pairs = expect_maximal_matching(g, one);
    EXPECT_GT(pairs, 0u);
    for (const int threads : {2, 4})
      EXPECT_EQ(run_with_threads(threads, run), one) << threads << " threads";
    if (g.num_nodes() != 200) { // a star has one matching edge whatever the seed
      const std::vector<NodeID> other =
          run_with_threads(1, [&] { return heavy_edge_matching(g, bound, unit_context(true), 6); });
      EXPECT_NE(other, one);
    }
  }
}

TEST(RandomUnitMatching, LeastDegreePartnerOfTheFirstVisit) {
  // A path 0-1-2-3-4 with a triangle 4-5-6: every visit order matches the degree-1 end 0 first
  // (the only vertex of degree 1) with its only neighbour 1; then 2 and 3 (degree 2) see each
  // other or 4, and 5 or 6 (degree 2) pair with each other before 4 (degree 3) is visited.
  const CsrGraph g =
      ml_test::graph_from_edges(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {4, 6}, {5, 6}});
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<NodeID> c =
        heavy_edge_matching(g, std::vector<Weight>{7}, unit_context(true), seed);
    EXPECT_EQ(c[1], 0u) << "seed " << seed;
    expect_maximal_matching(g, c);
  }
}

TEST(RandomUnitMatching, WeightedLevelsAsWithout) {
  const CsrGraph g = ml_test::weighted_power_law_graph(); // vertex and edge weights
  const std::vector<Weight> bound{40};
  EXPECT_EQ(heavy_edge_matching(g, bound, unit_context(true), 3),
            heavy_edge_matching(g, bound, unit_context(false), 3));
}

} // namespace
} // namespace gnnpart::ml
