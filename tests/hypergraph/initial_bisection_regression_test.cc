// Regressions of the initial bisection: greedy growing once looped forever when no remaining
// vertex fit into block 0 (8 x 8 grid, column-net model, k = 4).
#include <gtest/gtest.h>

#include "core/graph_builder.h"
#include "core/metrics.h"
#include "core/partition.h"
#include "hypergraph/hypergraph_partitioner.h"

namespace gnnpart::hg {
namespace {

CsrGraph grid(NodeID side) {
  EdgeList edges;
  edges.n = side * side;
  for (NodeID r = 0; r < side; ++r) {
    for (NodeID c = 0; c < side; ++c) {
      const NodeID u = r * side + c;
      if (c + 1 < side) {
        edges.sources.push_back(u);
        edges.targets.push_back(u + 1);
      }
      if (r + 1 < side) {
        edges.sources.push_back(u);
        edges.targets.push_back(u + side);
      }
    }
  }
  return build_csr(edges);
}

TEST(InitialBisectionRegression, SmallGridColumnNetTerminatesBalanced) {
  const CsrGraph graph = grid(8);
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kDegree);
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    PartitionOptions options;
    options.k = 4;
    options.seed = seed;
    options.model = Model::kHypergraph;
    options.objective = Objective::kKm1;
    const Partition partition = partition_hypergraph(model, options);
    const std::vector<Weight> weights = block_weights(model, partition);
    const Weight bound = max_block_weight(model.total_vertex_weight(), 4, options.epsilon);
    for (BlockID b = 0; b < 4; ++b) {
      EXPECT_GT(weights[b], 0) << "seed " << seed << " block " << b;
      EXPECT_LE(weights[b], bound) << "seed " << seed << " block " << b;
    }
  }
}

}  // namespace
}  // namespace gnnpart::hg
