#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/errors.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "core/random.h"

namespace gnnpart {
namespace {

void expect_equal(const EdgePartitionMetrics& a, const EdgePartitionMetrics& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.m, b.m);
  EXPECT_EQ(a.k, b.k);
  EXPECT_DOUBLE_EQ(a.replication_factor, b.replication_factor);
  EXPECT_EQ(a.vertex_copies, b.vertex_copies);
  EXPECT_EQ(a.covered_vertices, b.covered_vertices);
  EXPECT_EQ(a.edges_per_block, b.edges_per_block);
  EXPECT_EQ(a.copies_per_block, b.copies_per_block);
  EXPECT_DOUBLE_EQ(a.edge_imbalance, b.edge_imbalance);
}

TEST(EdgePartitionMetrics, HandComputedTriangleWithTail) {
  // Edges 0-1 (b0), 1-2 (b0), 2-0 (b1), 2-3 (b1); vertex 4 isolated; k = 3 (block 2 empty).
  const std::vector<NodeID> s{0, 1, 2, 2}, t{1, 2, 0, 3};
  const std::vector<BlockID> b{0, 0, 1, 1};
  for (const auto& m : {compute_edge_partition_metrics(5, s, t, b, 3),
                        compute_edge_partition_metrics_sequential(5, s, t, b, 3)}) {
    // Copies: 0 in {0,1}, 1 in {0}, 2 in {0,1}, 3 in {1}: 6 copies over 4 covered vertices.
    EXPECT_EQ(m.vertex_copies, 6u);
    EXPECT_EQ(m.covered_vertices, 4u);
    EXPECT_DOUBLE_EQ(m.replication_factor, 1.5);
    EXPECT_EQ(m.edges_per_block, (std::vector<EdgeID>{2, 2, 0}));
    EXPECT_EQ(m.copies_per_block, (std::vector<NodeID>{3, 3, 0}));
    EXPECT_DOUBLE_EQ(m.edge_imbalance, 2.0 / 2.0 - 1.0);
  }
}

TEST(EdgePartitionMetrics, RejectsBadInput) {
  const std::vector<NodeID> s{0, 1}, t{1, 2};
  const std::vector<BlockID> b{0, 1};
  EXPECT_THROW(compute_edge_partition_metrics(2, s, t, b, 2), InvalidParameter);
  EXPECT_THROW(compute_edge_partition_metrics(3, s, t, b, 1), InvalidParameter);
  EXPECT_THROW(compute_edge_partition_metrics(3, s, t, b, 0), InvalidParameter);
  EXPECT_THROW(compute_edge_partition_metrics_sequential(3, s, std::span(t).first(1), b, 2),
               InvalidParameter);
}

TEST(EdgePartitionMetrics, MatchReferenceOnRandomInputs) {
  Rng rng(derive_seed(51));
  for (int round = 0; round < 50; ++round) {
    const NodeID n = 1 + static_cast<NodeID>(rng.below(60));
    const std::size_t m = rng.below(200);
    // Up to 200 blocks so that several 64-bit words per vertex are used.
    const BlockID k =
        round % 10 == 0 ? 1 : 1 + static_cast<BlockID>(rng.below(round < 25 ? 8 : 200));
    std::vector<NodeID> s, t;
    std::vector<BlockID> b;
    for (std::size_t i = 0; i < m; ++i) {
      s.push_back(static_cast<NodeID>(rng.below(n)));
      t.push_back(static_cast<NodeID>(rng.below(n)));
      b.push_back(static_cast<BlockID>(rng.below(k)));
    }
    std::vector<std::set<BlockID>> blocks_of(n);
    std::vector<EdgeID> edges(k, 0);
    for (std::size_t i = 0; i < m; ++i) {
      blocks_of[s[i]].insert(b[i]);
      blocks_of[t[i]].insert(b[i]);
      ++edges[b[i]];
    }
    EdgePartitionMetrics r;
    r.n = n;
    r.m = m;
    r.k = k;
    r.edges_per_block = edges;
    r.copies_per_block.assign(k, 0);
    for (const auto& set : blocks_of) {
      r.vertex_copies += set.size();
      r.covered_vertices += !set.empty();
      for (BlockID x : set)
        ++r.copies_per_block[x];
    }
    r.replication_factor =
        r.covered_vertices ? static_cast<double>(r.vertex_copies) / r.covered_vertices : 0.0;
    r.edge_imbalance =
        m ? *std::max_element(edges.begin(), edges.end()) / std::ceil(double(m) / k) - 1 : 0.0;
    SCOPED_TRACE(round);
    expect_equal(run_with_threads(2, [&] { return compute_edge_partition_metrics(n, s, t, b, k); }),
                 r);
    expect_equal(compute_edge_partition_metrics_sequential(n, s, t, b, k), r);
  }
}

TEST(EdgePartitionMetrics, ParallelEqualsSequentialWithManyBlocks) {
  // n large enough relative to k that the block range is processed in several passes.
  Rng rng(derive_seed(52));
  const NodeID n = 300000;
  const BlockID k = 4000;
  std::vector<NodeID> s, t;
  std::vector<BlockID> b;
  for (int i = 0; i < 200000; ++i) {
    s.push_back(static_cast<NodeID>(rng.below(n)));
    t.push_back(static_cast<NodeID>(rng.below(n)));
    b.push_back(static_cast<BlockID>(rng.below(k)));
  }
  expect_equal(run_with_threads(2, [&] { return compute_edge_partition_metrics(n, s, t, b, k); }),
               compute_edge_partition_metrics_sequential(n, s, t, b, k));
}

} // namespace
} // namespace gnnpart
