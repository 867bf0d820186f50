// The volume-aware recursive bisection start of the max-volume objective (volume_bisection.h):
// the incurred volumes against the blocks' send and receive volumes recomputed from the graph,
// and the partition's blocks, balance and determinism.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bottleneck_test_util.h"
#include "core/block_limits.h"
#include "core/graph_builder.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/column_net.h"
#include "hypergraph/context.h"
#include "hypergraph/multilevel_start.h"
#include "hypergraph/volume_bisection.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

// A side x side grid: every net (a vertex and its neighbours) has at most 5 pins, so the
// receive shares 1 / c of scale 60 are exact.
CsrGraph grid(NodeID side) {
  EdgeList edges;
  edges.n = side * side;
  for (NodeID r = 0; r < side; ++r)
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
  return build_csr(edges);
}

// Over random part assignments of a grid, every part's incurred volumes sum to 60 times its
// send + receive volume recomputed from the graph's row split, and a vertex whose net lies in
// its own part and which is a pin of no other part's net incurs nothing.
TEST(VolumeBisection, IncurredVolumesSumToTheBlockVolumes) {
  const CsrGraph graph = grid(9);
  const Hypergraph model = build_column_net(graph);
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const BlockID k = 2 + static_cast<BlockID>(trial % 4);
    std::vector<BlockID> parts(graph.num_nodes());
    for (BlockID& p : parts)
      p = static_cast<BlockID>(rng.below(k));
    const std::vector<Weight> incurred = incurred_volumes(model, parts, k, 60);
    const Volumes expected = graph_volumes(graph, parts, k);
    std::vector<Weight> sums(k, 0);
    for (NodeID u = 0; u < graph.num_nodes(); ++u) {
      sums[parts[u]] += incurred[u];
      bool inside = true;
      for (const NetID e : model.incident_nets(u))
        for (const NodeID v : model.pins(e))
          inside = inside && parts[v] == parts[u];
      if (inside) {
        EXPECT_EQ(incurred[u], 0) << "vertex " << u;
      }
    }
    for (BlockID b = 0; b < k; ++b)
      EXPECT_EQ(sums[b], 60 * (expected.send[b] + expected.recv[b]))
          << "trial " << trial << " part " << b;
  }
}

// On cora at k = 8 and k = 12 (splits by 2, 2, 2 and by 2, 2, 3): every vertex in one of k
// blocks, every block non-empty and within the run's bound widened by the splits' rounding (one
// vertex per split), the same partition at 1 and 2 threads; the start after its V-cycles within
// the limits with no empty block.
TEST(VolumeBisection, PartitionHasKBalancedBlocks) {
  const CsrGraph graph =
      testing::read_edges_gz(std::string(GNNPART_SHARED_DIR "/datasets/") + "cora.edges.gz");
  const Hypergraph model = build_column_net(graph);
  for (const BlockID k : {8U, 12U}) {
    SCOPED_TRACE(::testing::Message() << "k = " << k);
    PartitionOptions options = testing::options(k, 1, 2);
    HgContext ctx = make_context(options);
    ctx.objective = Objective::kKm1;
    const BlockLimits limits = uniform_limits(model, k, options.epsilon);
    auto at = [&](int threads) {
      return run_with_threads(
          threads, [&] { return volume_bisection_partition(model, ctx, limits, 0.1, 3); });
    };
    const std::vector<BlockID> blocks = at(2);
    ASSERT_EQ(blocks.size(), model.num_nodes());
    EXPECT_EQ(at(1), blocks);
    std::vector<Weight> rows(k, 0);
    for (const BlockID b : blocks) {
      ASSERT_LT(b, k);
      ++rows[b];
    }
    for (BlockID b = 0; b < k; ++b) {
      EXPECT_GT(rows[b], 0) << "block " << b;
      EXPECT_LE(rows[b], limits.max(b, 0) + 3) << "block " << b;
    }
    const std::vector<BlockID> start = volume_bisection_start(model, ctx, limits, 0.1, 3);
    ASSERT_EQ(start.size(), model.num_nodes());
    std::vector<Weight> after(k, 0);
    for (const BlockID b : start)
      ++after[b];
    for (BlockID b = 0; b < k; ++b) {
      EXPECT_GT(after[b], 0) << "block " << b;
      EXPECT_LE(after[b], limits.max(b, 0)) << "block " << b;
    }
  }
}

} // namespace
} // namespace gnnpart::hg
