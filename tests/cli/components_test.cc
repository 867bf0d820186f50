// The union-find behind `gnnpart info` against Boost.Graph's connected_components.
#include <set>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <gtest/gtest.h>

#include "core/components.h"
#include "core/graph_builder.h"
#include "core/parallel.h"
#include "core/random.h"

namespace gnnpart {
namespace {

CsrGraph random_graph(NodeID n, std::size_t m, std::uint64_t seed,
                      std::vector<std::pair<NodeID, NodeID>>& edges) {
  Rng rng(seed);
  EdgeList list;
  list.n = n;
  for (std::size_t i = 0; i < m; ++i) {
    const auto u = static_cast<NodeID>(rng.below(n));
    const auto v = static_cast<NodeID>(rng.below(n));
    edges.emplace_back(u, v);
    list.sources.push_back(u);
    list.targets.push_back(v);
  }
  return build_csr(list);
}

TEST(Components, AgreesWithBoost) {
  // Sparse graphs around the giant-component threshold give many components of all sizes.
  for (const auto& [n, m] : std::vector<std::pair<NodeID, std::size_t>>{
           {1, 0}, {10, 3}, {1000, 400}, {1000, 500}, {5000, 2600}, {20000, 30000}}) {
    for (const std::uint64_t seed : {1u, 2u}) {
      SCOPED_TRACE(std::to_string(n) + " " + std::to_string(m) + " " + std::to_string(seed));
      std::vector<std::pair<NodeID, NodeID>> edges;
      const CsrGraph g = random_graph(n, m, seed, edges);
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> bg(n);
      for (const auto& [u, v] : edges)
        boost::add_edge(u, v, bg);
      std::vector<int> boost_labels(n);
      const int boost_count = boost::connected_components(bg, boost_labels.data());

      const std::vector<NodeID> labels =
          run_with_threads(2, [&] { return connected_component_labels(g); });
      EXPECT_EQ(labels, connected_component_labels_sequential(g));
      // Same partition into components: the label pairs correspond one to one.
      std::set<std::pair<NodeID, int>> pairs;
      for (NodeID u = 0; u < n; ++u) {
        pairs.emplace(labels[u], boost_labels[u]);
        EXPECT_LE(labels[u], u); // labelled by the smallest member
      }
      EXPECT_EQ(pairs.size(), static_cast<std::size_t>(boost_count));
      const ComponentStats stats = component_stats(g, labels);
      EXPECT_EQ(stats.components, static_cast<NodeID>(boost_count));
      std::vector<NodeID> size(boost_count, 0);
      NodeID isolated = 0;
      for (NodeID u = 0; u < n; ++u) {
        ++size[boost_labels[u]];
        if (g.degree(u) == 0)
          ++isolated;
      }
      EXPECT_EQ(stats.largest_component, *std::max_element(size.begin(), size.end()));
      EXPECT_EQ(stats.isolated_vertices, isolated);
    }
  }
}

} // namespace
} // namespace gnnpart
