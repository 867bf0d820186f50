// The column-net model made from the graph's own arrays (column_net_in_place.h) and the
// partitioner that lends the graph to it: the model equals build_column_net's, the graph comes
// back unchanged (also after an exception), and the partition is the one of the copying path.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/metrics.h"
#include "hypergraph/column_net_in_place.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

using testing::options;

template <typename T> std::vector<T> copy_of(std::span<const T> s) {
  return {s.begin(), s.end()};
}

// Weighted, with isolated vertices (first, middle, last) and a vertex adjacent to all others.
CsrGraph weighted_graph() {
  // 0 isolated; 1..5 a path with a hub 6 joined to all of 1..5; 7 isolated.
  std::vector<EdgeID> offsets{0, 0, 2, 5, 8, 11, 13, 18, 18};
  std::vector<NodeID> adjacency{2, 6, 1, 3, 6, 2, 4, 6, 3, 5, 6, 4, 6, 1, 2, 3, 4, 5};
  std::vector<Weight> edge_weights(adjacency.size());
  for (std::size_t i = 0; i < edge_weights.size(); ++i)
    edge_weights[i] = static_cast<Weight>(1 + i % 3);
  std::vector<Weight> vertex_weights{3, 1, 4, 1, 5, 9, 2, 6};
  return CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights), 1,
                  std::move(vertex_weights));
}

// A rows x cols grid: 2m = 4 rows cols - 2 (rows + cols) entries, sorted lists.
CsrGraph grid_graph(NodeID rows, NodeID cols) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  for (NodeID r = 0; r < rows; ++r)
    for (NodeID c = 0; c < cols; ++c) {
      const NodeID u = r * cols + c;
      if (r > 0)
        adjacency.push_back(u - cols);
      if (c > 0)
        adjacency.push_back(u - 1);
      if (c + 1 < cols)
        adjacency.push_back(u + 1);
      if (r + 1 < rows)
        adjacency.push_back(u + cols);
      offsets.push_back(adjacency.size());
    }
  return CsrGraph(std::move(offsets), std::move(adjacency));
}

void expect_same_hypergraph(const Hypergraph& a, const Hypergraph& b) {
  EXPECT_EQ(a.num_nodes(), b.num_nodes());
  EXPECT_EQ(copy_of(a.net_offsets()), copy_of(b.net_offsets()));
  EXPECT_EQ(copy_of(a.pin_array()), copy_of(b.pin_array()));
  EXPECT_EQ(a.ncon(), b.ncon());
  EXPECT_EQ(copy_of(a.vertex_weights()), copy_of(b.vertex_weights()));
  EXPECT_EQ(a.shares_incidence(), b.shares_incidence());
}

void expect_same_graph(const CsrGraph& a, const CsrGraph& b) {
  EXPECT_EQ(copy_of(a.offsets()), copy_of(b.offsets()));
  EXPECT_EQ(copy_of(a.adjacency()), copy_of(b.adjacency()));
  EXPECT_EQ(copy_of(a.edge_weights()), copy_of(b.edge_weights()));
  EXPECT_EQ(a.ncon(), b.ncon());
  EXPECT_EQ(copy_of(a.vertex_weights()), copy_of(b.vertex_weights()));
}

TEST(ColumnNetInPlace, EqualsTheCopiedModelAndGivesTheGraphBack) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(weighted_graph());
  graphs.push_back(testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz"));
  graphs.push_back(CsrGraph());
  // 2.5 MB of adjacency: the model is written while the graph's pages are given back a MiB at
  // a time (insert_diagonal), so several of those steps run.
  graphs.push_back(grid_graph(400, 400));
  for (CsrGraph& graph : graphs) {
    ASSERT_TRUE(column_net_in_place_ok(graph));
    const CsrGraph original = graph.copy();
    for (ColumnNetWeights w :
         {ColumnNetWeights::kDegree, ColumnNetWeights::kUnit, ColumnNetWeights::kGraph}) {
      const Hypergraph expected = build_column_net(original, w);
      {
        const ColumnNetInPlace in_place(graph, w);
        EXPECT_EQ(graph.num_nodes(), 0u); // lent
        expect_same_hypergraph(in_place.model(), expected);
      }
      expect_same_graph(graph, original);
      {
        const ModelWeightedGraph weighted(graph, w);
        const CsrGraph copied = graph_with_model_weights(original, expected);
        expect_same_graph(weighted.graph(), copied);
      }
      expect_same_graph(graph, original);
    }
  }
}

TEST(ColumnNetInPlace, RefusesListsItCannotRestore) {
  // Unsorted, repeated and self-loop neighbour lists.
  const CsrGraph unsorted({0, 2, 3, 4}, {2, 1, 0, 0});
  const CsrGraph repeated({0, 2, 4}, {1, 1, 0, 0});
  const CsrGraph loop({0, 2, 3}, {0, 1, 0});
  EXPECT_FALSE(column_net_in_place_ok(unsorted));
  EXPECT_FALSE(column_net_in_place_ok(repeated));
  EXPECT_FALSE(column_net_in_place_ok(loop));
  EXPECT_TRUE(column_net_in_place_ok(weighted_graph()));
}

// The lending partitioner gives the partition of the copying one (any k, both weight kinds,
// 1 and 2 threads), with the model's imbalance, and the graph back unchanged.
TEST(ColumnNetInPlace, PartitionsLikeTheCopyingPath) {
  CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const CsrGraph original = graph.copy();
  for (ColumnNetWeights w : {ColumnNetWeights::kDegree, ColumnNetWeights::kUnit}) {
    const Hypergraph model = build_column_net(original, w);
    for (BlockID k : {1u, 2u, 16u}) {
      for (int threads : {1, 2}) {
        SCOPED_TRACE(::testing::Message() << "k " << k << " threads " << threads);
        const PartitionOptions o = options(k, 4, threads);
        std::vector<double> imbalance;
        const Partition lent = partition_column_net(graph, w, o, &imbalance);
        expect_same_graph(graph, original);
        const Partition copied = partition_column_net(original, model, o);
        EXPECT_EQ(lent.blocks, copied.blocks);
        EXPECT_EQ(imbalance, compute_hypergraph_metrics(model, copied).imbalance);
        testing::check(model, lent, o);
      }
    }
  }
  // A graph it cannot lend (repeated edges) takes the copying path.
  CsrGraph repeated({0, 3, 5, 6}, {1, 1, 2, 0, 0, 0});
  const PartitionOptions o = options(2, 1);
  const Partition p = partition_column_net(repeated, ColumnNetWeights::kUnit, o);
  EXPECT_EQ(p.blocks.size(), 3u);
  EXPECT_EQ(repeated.num_directed_edges(), 6u);
}

TEST(ColumnNetInPlace, GivesTheGraphBackWhenThePartitionerThrows) {
  CsrGraph graph = weighted_graph();
  const CsrGraph original = graph.copy();
  // Vertex 5 weighs 9 of 31: more than a block of 4 may carry at epsilon 0.
  PartitionOptions o = options(4, 1);
  o.epsilon = 0;
  EXPECT_THROW(partition_column_net(graph, ColumnNetWeights::kGraph, o), InfeasibleBalance);
  expect_same_graph(graph, original);
  // Unwinding through the model gives the graph back too.
  try {
    const ColumnNetInPlace in_place(graph, ColumnNetWeights::kUnit);
    throw InvalidParameter("thrown while lent");
  } catch (const InvalidParameter&) {
  }
  expect_same_graph(graph, original);
}

} // namespace
} // namespace gnnpart::hg
