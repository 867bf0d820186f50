#include "core/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/parallel.h"
#include "core_test_util.h"

namespace gnnpart {
namespace {

// Brute force from the raw edge list, with std::set per vertex.
GraphMetrics reference_metrics(const EdgeList& list, const Partition& partition, int ncon,
                               const std::vector<Weight>& vertex_weights) {
  const NodeID n = list.n;
  const BlockID k = partition.k;
  const auto adjacency = testing::reference_adjacency(list);
  GraphMetrics r;
  r.n = n;
  r.k = k;
  r.send_volume.assign(k, 0);
  r.recv_volume.assign(k, 0);
  r.block_sizes.assign(k, 0);
  std::set<std::pair<BlockID, BlockID>> pairs;
  for (NodeID u = 0; u < n; ++u) {
    const BlockID p = partition.blocks[u];
    ++r.block_sizes[p];
    std::set<BlockID> blocks{p};
    for (const auto& [v, w] : adjacency[u]) {
      blocks.insert(partition.blocks[v]);
      if (v > u) {
        ++r.m;
        if (partition.blocks[v] != p) {
          ++r.edge_cut;
          r.weighted_edge_cut += w;
        }
      }
    }
    r.comm_volume += blocks.size() - 1;
    r.send_volume[p] += blocks.size() - 1;
    if (blocks.size() > 1)
      ++r.boundary_vertices;
    for (BlockID q : blocks) {
      if (q == p)
        continue;
      ++r.recv_volume[q];
      pairs.emplace(p, q);
    }
  }
  r.num_comm_pairs = pairs.size();
  Weight halo = 0;
  for (BlockID b = 0; b < k; ++b) {
    r.max_send_volume = std::max(r.max_send_volume, r.send_volume[b]);
    r.max_recv_volume = std::max(r.max_recv_volume, r.recv_volume[b]);
    halo += r.recv_volume[b];
    r.empty_blocks += r.block_sizes[b] == 0;
  }
  r.halo_ratio = n == 0 ? 0.0 : static_cast<double>(halo) / n;
  const double perfect = std::ceil(static_cast<double>(n) / k);
  r.imbalance_vertices =
      n == 0 ? 0.0 : *std::max_element(r.block_sizes.begin(), r.block_sizes.end()) / perfect - 1;
  for (int c = 0; c < ncon; ++c) {
    std::vector<Weight> per_block(k, 0);
    Weight total = 0;
    for (NodeID u = 0; u < n; ++u) {
      const Weight w = vertex_weights.empty() ? 1 : vertex_weights[u * ncon + c];
      per_block[partition.blocks[u]] += w;
      total += w;
    }
    const double perfect_c = std::ceil(static_cast<double>(total) / k);
    r.imbalance.push_back(
        total == 0 ? 0.0 : *std::max_element(per_block.begin(), per_block.end()) / perfect_c - 1);
  }
  return r;
}

void expect_equal(const GraphMetrics& a, const GraphMetrics& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.m, b.m);
  EXPECT_EQ(a.k, b.k);
  EXPECT_EQ(a.edge_cut, b.edge_cut);
  EXPECT_EQ(a.weighted_edge_cut, b.weighted_edge_cut);
  EXPECT_EQ(a.comm_volume, b.comm_volume);
  EXPECT_EQ(a.send_volume, b.send_volume);
  EXPECT_EQ(a.recv_volume, b.recv_volume);
  EXPECT_EQ(a.max_send_volume, b.max_send_volume);
  EXPECT_EQ(a.max_recv_volume, b.max_recv_volume);
  EXPECT_DOUBLE_EQ(a.halo_ratio, b.halo_ratio);
  EXPECT_EQ(a.num_comm_pairs, b.num_comm_pairs);
  EXPECT_EQ(a.boundary_vertices, b.boundary_vertices);
  EXPECT_EQ(a.block_sizes, b.block_sizes);
  ASSERT_EQ(a.imbalance.size(), b.imbalance.size());
  for (std::size_t c = 0; c < a.imbalance.size(); ++c)
    EXPECT_DOUBLE_EQ(a.imbalance[c], b.imbalance[c]);
  EXPECT_DOUBLE_EQ(a.imbalance_vertices, b.imbalance_vertices);
  EXPECT_EQ(a.empty_blocks, b.empty_blocks);
}

TEST(GraphMetrics, HandComputedStar) {
  // Star centre 0 with leaves 1..4; blocks: 0,1 -> 0; 2 -> 1; 3,4 -> 2; k = 4 (block 3 empty).
  EdgeList list{5, {0, 0, 0, 0}, {1, 2, 3, 4}, {5, 6, 7, 8}};
  const CsrGraph g = build_csr(list);
  const Partition p{4, {0, 0, 1, 2, 2}};
  for (const GraphMetrics& m :
       {compute_graph_metrics(g, p), compute_graph_metrics_sequential(g, p)}) {
    EXPECT_EQ(m.n, 5u);
    EXPECT_EQ(m.m, 4u);
    EXPECT_EQ(m.edge_cut, 3u);
    EXPECT_EQ(m.weighted_edge_cut, 6 + 7 + 8);
    // lambda(0) = 3, leaves 2, 3, 4 have lambda 2, leaf 1 has lambda 1: volume 2 + 3 = 5.
    EXPECT_EQ(m.comm_volume, 5);
    EXPECT_EQ(m.send_volume, (std::vector<Weight>{2, 1, 2, 0}));
    // Block 0 receives 2, 3, 4; block 1 receives 0; block 2 receives 0.
    EXPECT_EQ(m.recv_volume, (std::vector<Weight>{3, 1, 1, 0}));
    EXPECT_EQ(m.max_send_volume, 2);
    EXPECT_EQ(m.max_recv_volume, 3);
    EXPECT_DOUBLE_EQ(m.halo_ratio, 1.0);
    // Pairs: (0,1), (0,2), (1,0), (2,0).
    EXPECT_EQ(m.num_comm_pairs, 4u);
    EXPECT_EQ(m.boundary_vertices, 4u);
    EXPECT_EQ(m.block_sizes, (std::vector<Weight>{2, 1, 2, 0}));
    EXPECT_DOUBLE_EQ(m.imbalance_vertices, 2.0 / 2.0 - 1.0);
    EXPECT_EQ(m.empty_blocks, 1u);
  }
}

TEST(GraphMetrics, HandComputedPathWithWeights) {
  // Path 0-1-2-3-4-5 in blocks 0 0 1 1 0 0, two constraints.
  EdgeList list{6, {0, 1, 2, 3, 4}, {1, 2, 3, 4, 5}, {}};
  CsrGraph g = build_csr(list);
  g.set_vertex_weights(2, {1, 0, 1, 0, 1, 0, 1, 5, 1, 0, 1, 0});
  const Partition p{2, {0, 0, 1, 1, 0, 0}};
  const GraphMetrics m = compute_graph_metrics(g, p);
  EXPECT_EQ(m.edge_cut, 2u);
  EXPECT_EQ(m.comm_volume, 4); // vertices 1, 2, 3, 4
  EXPECT_EQ(m.num_comm_pairs, 2u);
  EXPECT_DOUBLE_EQ(m.imbalance_vertices, 4.0 / 3.0 - 1.0); // 4 vs ceil(6 / 2) = 3
  ASSERT_EQ(m.imbalance.size(), 2u);
  EXPECT_DOUBLE_EQ(m.imbalance[0], 4.0 / 3.0 - 1.0);
  EXPECT_DOUBLE_EQ(m.imbalance[1], 5.0 / 3.0 - 1.0);
  expect_equal(m, compute_graph_metrics_sequential(g, p));
}

TEST(GraphMetrics, MatchReferenceOnRandomGraphs) {
  Rng rng(derive_seed(31));
  for (int round = 0; round < 50; ++round) {
    const NodeID n = 1 + static_cast<NodeID>(rng.below(70));
    const bool weighted = round % 3 == 0;
    const EdgeList list = testing::random_edge_list(rng, n, rng.below(4 * n), weighted);
    CsrGraph g = build_csr(list);
    const int ncon = 1 + static_cast<int>(rng.below(3));
    std::vector<Weight> weights;
    if (ncon > 1 || rng.coin()) {
      for (std::size_t i = 0; i < static_cast<std::size_t>(n) * ncon; ++i)
        weights.push_back(static_cast<Weight>(rng.below(5)));
    }
    g.set_vertex_weights(weights.empty() ? 1 : ncon, weights);
    const BlockID k = round % 10 == 0 ? 1 : 1 + static_cast<BlockID>(rng.below(9));
    const Partition p = testing::random_partition(rng, n, k, round % 2 == 0);
    const GraphMetrics reference = reference_metrics(list, p, g.ncon(), weights);
    const GraphMetrics parallel = run_with_threads(2, [&] { return compute_graph_metrics(g, p); });
    const GraphMetrics sequential = compute_graph_metrics_sequential(g, p);
    SCOPED_TRACE(round);
    expect_equal(parallel, reference);
    expect_equal(sequential, reference);
  }
}

TEST(GraphMetrics, ParallelEqualsSequentialOnLargerGraphs) {
  Rng rng(derive_seed(32));
  const EdgeList list = testing::random_edge_list(rng, 30000, 150000, true);
  const CsrGraph g = build_csr(list);
  // k = 9000 exercises the sparse pair list (above the dense k x k bitset limit).
  for (BlockID k : {2u, 64u, 9000u}) {
    const Partition p = testing::random_partition(rng, g.num_nodes(), k, true);
    const GraphMetrics sequential = compute_graph_metrics_sequential(g, p);
    expect_equal(run_with_threads(2, [&] { return compute_graph_metrics(g, p); }), sequential);
    expect_equal(run_with_threads(1, [&] { return compute_graph_metrics(g, p); }), sequential);
  }
}

TEST(GraphMetrics, RejectsBadPartitions) {
  const CsrGraph g = build_csr(EdgeList{3, {0}, {1}, {}});
  EXPECT_THROW(compute_graph_metrics(g, Partition{2, {0, 1}}), InvalidParameter);
  EXPECT_THROW(compute_graph_metrics(g, Partition{2, {0, 1, 2}}), InvalidParameter);
  EXPECT_THROW(compute_graph_metrics_sequential(g, Partition{0, {0, 0, 0}}), InvalidParameter);
}

TEST(Imbalance, MaxOverCeilMinusOne) {
  const std::vector<Weight> w{3, 5, 2};
  EXPECT_DOUBLE_EQ(imbalance(w, 10, 3), 5.0 / 4.0 - 1.0);
  EXPECT_DOUBLE_EQ(imbalance(w, 0, 3), 0.0);
  EXPECT_DOUBLE_EQ(imbalance(std::vector<Weight>{7}, 7, 1), 0.0);
}

} // namespace
} // namespace gnnpart
