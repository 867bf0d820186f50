// Heavy-edge matching (coarsening/matching.h) checked with plain loops: clusters of one or two
// adjacent vertices within the weight bound, maximal, equal to the sequential greedy matching
// when edge weights are distinct, the same for a seed at any thread count; and the selection
// rule of the presets.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "core/parallel.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/coarsening/matching.h"
#include "partition/partitioner.h"

namespace gnnpart::ml {
namespace {

CoarseningContext matching_context(bool two_hop) {
  CoarseningContext ctx;
  ctx.algorithm = ClusteringAlgorithm::kMatching;
  ctx.two_hop = two_hop;
  return ctx;
}

// The pairs {a, b} (a < b) of a symmetric graph, each once.
std::vector<std::pair<NodeID, NodeID>> unique_pairs(const CsrGraph& g) {
  std::vector<std::pair<NodeID, NodeID>> pairs;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (NodeID v : g.neighbors(u))
      if (u < v)
        pairs.emplace_back(u, v);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// Gives the pairs of g the weights `weight_of` assigns (symmetric by construction).
void set_pair_weights(CsrGraph& g, const std::map<std::pair<NodeID, NodeID>, Weight>& weight_of) {
  std::vector<Weight> weights;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (NodeID v : g.neighbors(u))
      weights.push_back(weight_of.at({std::min(u, v), std::max(u, v)}));
  g.set_edge_weights(std::move(weights));
}

// Members of each cluster label; checks the labels are the smaller member.
std::map<NodeID, std::vector<NodeID>> members_of(const std::vector<NodeID>& clusters) {
  std::map<NodeID, std::vector<NodeID>> members;
  for (NodeID u = 0; u < clusters.size(); ++u)
    members[clusters[u]].push_back(u);
  for (const auto& [label, list] : members) {
    EXPECT_LE(list.size(), 2u) << "cluster " << label;
    EXPECT_EQ(label, list.front()) << "label is not the smaller member";
  }
  return members;
}

bool adjacent(const CsrGraph& g, NodeID u, NodeID v) {
  const auto nb = g.neighbors(u);
  return std::find(nb.begin(), nb.end(), v) != nb.end();
}

TEST(HeavyEdgeMatching, PairsAdjacentVerticesWithinTheBoundAndIsMaximal) {
  CsrGraph g = ml_test::random_graph(600, 2400, 3);
  Rng rng(5);
  std::map<std::pair<NodeID, NodeID>, Weight> weight_of;
  for (const auto& pair : unique_pairs(g))
    weight_of[pair] = 1 + static_cast<Weight>(rng.below(4));
  set_pair_weights(g, weight_of);
  std::vector<Weight> vertex_weights(g.num_nodes());
  for (Weight& w : vertex_weights)
    w = 1 + static_cast<Weight>(rng.below(5));
  vertex_weights[7] = 9; // heavier than the bound: stays alone
  g.set_vertex_weights(1, vertex_weights);
  const std::vector<Weight> bound = {6};

  const std::vector<NodeID> clusters = heavy_edge_matching(g, bound, matching_context(false), 11);
  ASSERT_EQ(clusters.size(), g.num_nodes());
  std::vector<bool> single(g.num_nodes(), false);
  NodeID pairs = 0;
  for (const auto& [label, list] : members_of(clusters)) {
    if (list.size() == 1) {
      single[list[0]] = true;
      continue;
    }
    ++pairs;
    EXPECT_TRUE(adjacent(g, list[0], list[1])) << list[0] << " " << list[1];
    EXPECT_LE(vertex_weights[list[0]] + vertex_weights[list[1]], bound[0]);
  }
  EXPECT_TRUE(single[7]);
  EXPECT_GT(pairs, g.num_nodes() / 4);
  // Maximal: no edge joins two singletons that would fit together.
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (NodeID v : g.neighbors(u))
      if (u != v && single[u] && single[v]) {
        EXPECT_GT(vertex_weights[u] + vertex_weights[v], bound[0]) << u << " " << v;
      }
}

TEST(HeavyEdgeMatching, IsTheGreedyMatchingWhenEdgeWeightsAreDistinct) {
  for (const std::uint64_t graph_seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(testing::Message() << "graph seed " << graph_seed);
    CsrGraph g = ml_test::random_graph(500, 1500, graph_seed);
    std::vector<std::pair<NodeID, NodeID>> pairs = unique_pairs(g);
    Rng rng(graph_seed + 100);
    std::shuffle(pairs.begin(), pairs.end(), rng);
    std::map<std::pair<NodeID, NodeID>, Weight> weight_of;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      weight_of[pairs[i]] = static_cast<Weight>(i + 1);
    set_pair_weights(g, weight_of);

    // Plain greedy: heaviest edge first, both ends free.
    std::vector<NodeID> mate(g.num_nodes(), kInvalidNodeID);
    for (std::size_t i = pairs.size(); i-- > 0;) {
      const auto [a, b] = pairs[i];
      if (mate[a] == kInvalidNodeID && mate[b] == kInvalidNodeID) {
        mate[a] = b;
        mate[b] = a;
      }
    }
    const std::vector<Weight> bound = {2};
    const std::vector<NodeID> clusters = heavy_edge_matching(g, bound, matching_context(false), 17);
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      const NodeID expected = mate[u] == kInvalidNodeID ? u : std::min(u, mate[u]);
      EXPECT_EQ(clusters[u], expected) << "vertex " << u;
    }
  }
}

// Ties everywhere (a mesh with unit edge weights and a few vertex weights): the matching is still
// the greedy matching of the documented order (heavier edge, lighter pair, higher hash of the
// pair under derive_seed(seed, 1), smaller ids), which a vertex reaches by keeping its proposal
// while the partner is free and by hashing only edges that tie on both weights.
TEST(HeavyEdgeMatching, IsTheGreedyMatchingOfTheKeyOrderWhenWeightsTie) {
  CsrGraph g = ml_test::grid_graph(40, 50);
  Rng rng(9);
  std::vector<Weight> vertex_weights(g.num_nodes());
  for (Weight& w : vertex_weights)
    w = rng.below(4) == 0 ? 2 : 1;
  g.set_vertex_weights(1, vertex_weights);
  const std::uint64_t seed = 31;
  const std::uint64_t tie_seed = derive_seed(seed, 1);
  struct Key {
    Weight pair_weight;
    std::uint64_t tie;
    NodeID low, high;
  };
  std::vector<Key> keys;
  for (const auto& [a, b] : unique_pairs(g))
    keys.push_back({vertex_weights[a] + vertex_weights[b],
                    splitmix64(tie_seed ^ ((static_cast<std::uint64_t>(a) << 32) ^ b)), a, b});
  std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
    if (x.pair_weight != y.pair_weight)
      return x.pair_weight < y.pair_weight;
    if (x.tie != y.tie)
      return x.tie > y.tie;
    return x.low != y.low ? x.low < y.low : x.high < y.high;
  });
  std::vector<NodeID> mate(g.num_nodes(), kInvalidNodeID);
  for (const Key& k : keys)
    if (mate[k.low] == kInvalidNodeID && mate[k.high] == kInvalidNodeID) {
      mate[k.low] = k.high;
      mate[k.high] = k.low;
    }
  const std::vector<Weight> bound = {4};
  const std::vector<NodeID> clusters = heavy_edge_matching(g, bound, matching_context(false), seed);
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    const NodeID expected = mate[u] == kInvalidNodeID ? u : std::min(u, mate[u]);
    EXPECT_EQ(clusters[u], expected) << "vertex " << u;
  }
}

TEST(HeavyEdgeMatching, SameSeedSameClustersAtEveryThreadCount) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(60, 70));
  graphs.push_back(ml_test::power_law_graph(5000, 3, 2));
  const std::vector<Weight> bound = {3};
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "graph " << i);
    const auto run = [&] {
      return heavy_edge_matching(graphs[i], bound, matching_context(true), 23);
    };
    const std::vector<NodeID> one = run_with_threads(1, run);
    for (int threads : {2})
      EXPECT_EQ(run_with_threads(threads, run), one) << threads << " threads";
    EXPECT_EQ(run_with_threads(2, run), run_with_threads(2, run));
    // Unit weights tie everywhere: the seed decides.
    EXPECT_NE(
        run_with_threads(
            1, [&] { return heavy_edge_matching(graphs[i], bound, matching_context(true), 24); }),
        one);
  }
}

TEST(HeavyEdgeMatching, KeepsFixedVerticesApartAndCommunitiesWhole) {
  const CsrGraph g = ml_test::grid_graph(30, 30);
  std::vector<BlockID> fixed(g.num_nodes(), kInvalidBlockID), communities(g.num_nodes());
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    if (u % 3 != 1)
      fixed[u] = u % 2;
    communities[u] = (u / 7) % 3;
  }
  const std::vector<Weight> bound = {2};
  const std::vector<NodeID> clusters =
      heavy_edge_matching(g, bound, matching_context(true), 5, fixed, communities);
  NodeID pairs = 0;
  for (const auto& [label, list] : members_of(clusters)) {
    if (list.size() < 2)
      continue;
    ++pairs;
    EXPECT_FALSE(fixed[list[0]] != kInvalidBlockID && fixed[list[1]] != kInvalidBlockID)
        << list[0] << " " << list[1];
    EXPECT_EQ(communities[list[0]], communities[list[1]]) << list[0] << " " << list[1];
  }
  EXPECT_GT(pairs, 100u);
}

TEST(HeavyEdgeMatching, TwoHopPairsTheLeavesOfAStar) {
  const CsrGraph g = ml_test::star_graph(101);
  const std::vector<Weight> bound = {2};
  // Without two-hop the hub takes one leaf and the other 99 stay alone.
  EXPECT_EQ(members_of(heavy_edge_matching(g, bound, matching_context(false), 1)).size(), 100u);
  const auto members = members_of(heavy_edge_matching(g, bound, matching_context(true), 1));
  EXPECT_EQ(members.size(), 51u); // the hub and a leaf, 49 pairs of leaves, one leaf
  for (const auto& [label, list] : members)
    if (list.size() == 2 && list[0] != 0) {
      EXPECT_FALSE(adjacent(g, list[0], list[1]));
    }
}

TEST(HeavyEdgeMatching, PresetsMatchGraphsWithoutHubs) {
  CoarseningContext ctx;
  ctx.algorithm = ClusteringAlgorithm::kAuto;
  EXPECT_EQ(resolve_clustering(ml_test::grid_graph(20, 20), ctx), ClusteringAlgorithm::kMatching);
  EXPECT_EQ(resolve_clustering(ml_test::star_graph(40), ctx),
            ClusteringAlgorithm::kLabelPropagation);
  ctx.algorithm = ClusteringAlgorithm::kLabelPropagation;
  EXPECT_EQ(resolve_clustering(ml_test::grid_graph(20, 20), ctx),
            ClusteringAlgorithm::kLabelPropagation);
}

// A 60 x 60 grid (7080 edges) plus hubs: hub h (0 <= h < hubs) joins `degree` grid vertices.
CsrGraph grid_with_hubs(NodeID hubs, NodeID degree) {
  const NodeID side = 60, n = side * side + hubs;
  std::vector<std::pair<NodeID, NodeID>> edges = ml_test::grid_edges(side, side);
  for (NodeID h = 0; h < hubs; ++h)
    for (NodeID i = 0; i < degree; ++i)
      edges.emplace_back(side * side + h, (h * 7919 + i * 13) % (side * side));
  return ml_test::graph_from_edges(n, edges);
}

TEST(HeavyEdgeMatching, OneHubKeepsAMeshWithMatching) {
  CoarseningContext ctx;
  ctx.algorithm = ClusteringAlgorithm::kAuto;
  // One hub of degree 100: 100 of 14360 arc ends (0.7%) at hubs, so matching (a single vertex
  // of degree > 32 used to switch the whole mesh to label propagation).
  EXPECT_EQ(resolve_clustering(grid_with_hubs(1, 100), ctx), ClusteringAlgorithm::kMatching);
  // Two such hubs: 200 of 14560 (1.4%), as in a power-law graph.
  EXPECT_EQ(resolve_clustering(grid_with_hubs(2, 100), ctx),
            ClusteringAlgorithm::kLabelPropagation);
  // Five vertices of degree 33, just above matching_max_degree: 165 of 14490 (1.1%).
  EXPECT_EQ(resolve_clustering(grid_with_hubs(5, 33), ctx), ClusteringAlgorithm::kLabelPropagation);
  EXPECT_EQ(resolve_clustering(ml_test::power_law_graph(2000, 3, 1), ctx),
            ClusteringAlgorithm::kLabelPropagation);
  // Degree exactly matching_max_degree is no hub.
  EXPECT_EQ(resolve_clustering(grid_with_hubs(40, 32), ctx), ClusteringAlgorithm::kMatching);
}

TEST(HeavyEdgeMatching, MeshPartitionsAreBalancedAndDeterministic) {
  // The default preset coarsens this grid by matching (maximum degree 4).
  const CsrGraph g = ml_test::grid_graph(80, 90);
  for (BlockID k : {2u, 7u, 32u}) {
    SCOPED_TRACE(testing::Message() << "k " << k);
    PartitionOptions o;
    o.k = k;
    o.seed = 3;
    o.threads = 2;
    const Partition a = partition_graph_multilevel(g, o);
    const ml_test::Checked checked = ml_test::check_result(g, a, k, o.epsilon);
    EXPECT_EQ(partition_graph_multilevel(g, o).blocks, a.blocks);
    // A 80 x 90 grid cut into k strips or tiles needs a few times sqrt(n / k) edges per block.
    EXPECT_LT(checked.cut, k == 2 ? 120 : k == 7 ? 500 : 1400);
  }
}

} // namespace
} // namespace gnnpart::ml
