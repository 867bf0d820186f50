// Layout plans checked against brute force on small graphs: halo sets, send/receive symmetry,
// the local CSR against the global adjacency, vertex sets, and vertex-cut layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/metrics.h"
#include "core/random.h"
#include "layout/layout_plan.h"

namespace gnnpart {
namespace {

CsrGraph random_graph(NodeID n, std::uint64_t edges, std::uint64_t seed) {
  EdgeList list;
  list.n = n;
  Rng rng(seed);
  for (std::uint64_t e = 0; e < edges; ++e) {
    list.sources.push_back(static_cast<NodeID>(rng.below(n)));
    list.targets.push_back(static_cast<NodeID>(rng.below(n)));
  }
  return build_csr(list);
}

Partition random_partition(NodeID n, BlockID k, std::uint64_t seed) {
  Partition p;
  p.k = k;
  Rng rng(seed);
  for (NodeID u = 0; u < n; ++u)
    p.blocks.push_back(static_cast<BlockID>(rng.below(k)));
  return p;
}

NodeID to_global(const LayoutPlan& plan, NodeID local) {
  return local < plan.num_owned() ? plan.owned[local] : plan.halo[local - plan.num_owned()];
}

// Every property of the plans, recomputed from the graph and the partition.
void check_plans(const CsrGraph& graph, const Partition& partition,
                 const std::vector<LayoutPlan>& plans) {
  const BlockID k = partition.k;
  ASSERT_EQ(plans.size(), k);
  std::uint64_t volume = 0; // sum over u of lambda(u) - 1
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    std::set<BlockID> blocks{partition.blocks[u]};
    for (NodeID v : graph.neighbors(u))
      blocks.insert(partition.blocks[v]);
    volume += blocks.size() - 1;
  }
  std::uint64_t sent = 0;
  for (BlockID p = 0; p < k; ++p) {
    const LayoutPlan& plan = plans[p];
    EXPECT_EQ(plan.block, p);
    EXPECT_EQ(plan.n, graph.num_nodes());
    EXPECT_EQ(plan.m, graph.num_edges());
    // Owned: exactly the vertices of p, increasing.
    std::vector<NodeID> owned;
    for (NodeID u = 0; u < graph.num_nodes(); ++u) {
      if (partition.blocks[u] == p)
        owned.push_back(u);
    }
    EXPECT_EQ(plan.owned, owned);
    // Halo: vertices outside p adjacent to p, grouped by owner, increasing inside a group.
    std::vector<std::pair<BlockID, NodeID>> halo;
    for (NodeID u : owned) {
      for (NodeID v : graph.neighbors(u)) {
        if (partition.blocks[v] != p)
          halo.emplace_back(partition.blocks[v], v);
      }
    }
    std::sort(halo.begin(), halo.end());
    halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
    ASSERT_EQ(plan.halo.size(), halo.size());
    for (std::size_t s = 0; s < halo.size(); ++s) {
      EXPECT_EQ(plan.halo_owner[s], halo[s].first);
      EXPECT_EQ(plan.halo[s], halo[s].second);
    }
    // Local CSR reproduces the adjacency of every owned row.
    ASSERT_EQ(plan.row_offsets.size(), owned.size() + 1);
    for (NodeID i = 0; i < plan.num_owned(); ++i) {
      std::vector<NodeID> row;
      for (EdgeID e = plan.row_offsets[i]; e < plan.row_offsets[i + 1]; ++e) {
        ASSERT_LT(plan.columns[e], plan.num_local());
        if (e > plan.row_offsets[i]) {
          EXPECT_LT(plan.columns[e - 1], plan.columns[e]);
        }
        row.push_back(to_global(plan, plan.columns[e]));
      }
      std::vector<NodeID> expected(graph.neighbors(owned[i]).begin(),
                                   graph.neighbors(owned[i]).end());
      std::sort(row.begin(), row.end());
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(row, expected) << "block " << p << " row " << i;
    }
    for (NodeID l = 0; l < plan.num_local(); ++l) {
      EXPECT_EQ(plan.degree[l], graph.degree(to_global(plan, l)));
    }
    // Send lists: exactly the owned u with a neighbour in q, increasing.
    for (std::size_t i = 0; i < plan.neighbors.size(); ++i) {
      const BlockID q = plan.neighbors[i];
      EXPECT_NE(q, p);
      std::vector<NodeID> expected;
      for (NodeID l = 0; l < plan.num_owned(); ++l) {
        const auto nb = graph.neighbors(owned[l]);
        if (std::any_of(nb.begin(), nb.end(), [&](NodeID v) { return partition.blocks[v] == q; })) {
          expected.push_back(l);
        }
      }
      const std::vector<NodeID> send(plan.send_local.begin() + plan.send_offsets[i],
                                     plan.send_local.begin() + plan.send_offsets[i + 1]);
      EXPECT_EQ(send, expected);
      sent += send.size();
      // What p sends to q is what q receives from p, in the same order.
      const LayoutPlan& other = plans[q];
      const auto it = std::find(other.neighbors.begin(), other.neighbors.end(), p);
      ASSERT_NE(it, other.neighbors.end());
      const std::size_t j = static_cast<std::size_t>(it - other.neighbors.begin());
      ASSERT_EQ(other.recv_offsets[j + 1] - other.recv_offsets[j], send.size());
      for (std::size_t r = 0; r < send.size(); ++r) {
        const NodeID slot = other.recv_local[other.recv_offsets[j] + r];
        ASSERT_GE(slot, other.num_owned());
        EXPECT_EQ(to_global(other, slot), plan.owned[send[r]]);
        EXPECT_EQ(other.halo_owner[slot - other.num_owned()], p);
      }
    }
    // Every halo slot is filled by exactly one receive.
    std::vector<NodeID> received(plan.recv_local.begin(), plan.recv_local.end());
    std::sort(received.begin(), received.end());
    std::vector<NodeID> slots(plan.num_halo());
    for (NodeID s = 0; s < plan.num_halo(); ++s)
      slots[s] = plan.num_owned() + s;
    EXPECT_EQ(received, slots);
  }
  EXPECT_EQ(sent, volume);
  const LayoutSummary summary = summarize_layout(plans);
  EXPECT_EQ(summary.rows_per_layer, volume);
  const GraphMetrics metrics = compute_graph_metrics_sequential(graph, partition);
  EXPECT_EQ(summary.rows_per_layer, static_cast<std::uint64_t>(metrics.comm_volume));
  EXPECT_EQ(summary.max_send_rows, static_cast<std::uint64_t>(metrics.max_send_volume));
  EXPECT_EQ(summary.max_recv_rows, static_cast<std::uint64_t>(metrics.max_recv_volume));
  EXPECT_EQ(summary.messages, metrics.num_comm_pairs);
}

bool same_plans(const std::vector<LayoutPlan>& a, const std::vector<LayoutPlan>& b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t p = 0; p < a.size(); ++p) {
    if (a[p].owned != b[p].owned || a[p].columns != b[p].columns ||
        a[p].row_offsets != b[p].row_offsets || a[p].halo != b[p].halo ||
        a[p].send_local != b[p].send_local || a[p].recv_local != b[p].recv_local ||
        a[p].neighbors != b[p].neighbors) {
      return false;
    }
  }
  return true;
}

TEST(LayoutPlan, PathOfSixInThreeBlocks) {
  // 0-1-2-3-4-5, blocks {0,1} {2,3} {4,5}.
  EdgeList list;
  list.n = 6;
  list.sources = {0, 1, 2, 3, 4};
  list.targets = {1, 2, 3, 4, 5};
  const CsrGraph graph = build_csr(list);
  Partition partition{3, {0, 0, 1, 1, 2, 2}};
  const auto plans = build_layout_plans(graph, partition);
  check_plans(graph, partition, plans);
  // Block 1 holds 2 and 3; its halo is 1 (from block 0) and 4 (from block 2).
  EXPECT_EQ(plans[1].halo, (std::vector<NodeID>{1, 4}));
  EXPECT_EQ(plans[1].neighbors, (std::vector<BlockID>{0, 2}));
  EXPECT_EQ(plans[1].send_local, (std::vector<NodeID>{0, 1})); // 2 to block 0, 3 to block 2
  EXPECT_EQ(summarize_layout(plans).rows_per_layer, 4u);
}

TEST(LayoutPlan, RandomGraphsAgainstBruteForce) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const CsrGraph graph = random_graph(60 + 10 * seed, 150 + 40 * seed, seed);
    for (BlockID k : {1u, 2u, 5u, 9u}) {
      const Partition partition = random_partition(graph.num_nodes(), k, seed * 31 + k);
      const auto plans = build_layout_plans(graph, partition, 2);
      check_plans(graph, partition, plans);
    }
  }
}

TEST(LayoutPlan, EmptyBlockAndIsolatedVertices) {
  EdgeList list;
  list.n = 7; // 5 and 6 isolated
  list.sources = {0, 1, 2};
  list.targets = {1, 2, 3};
  const CsrGraph graph = build_csr(list);
  Partition partition{4, {0, 1, 0, 1, 0, 3, 0}}; // block 2 empty
  const auto plans = build_layout_plans(graph, partition);
  check_plans(graph, partition, plans);
  EXPECT_TRUE(plans[2].owned.empty());
  EXPECT_TRUE(plans[3].neighbors.empty());
}

TEST(LayoutPlan, DeterministicAcrossThreadCounts) {
  const CsrGraph graph = random_graph(500, 2000, 99);
  const Partition partition = random_partition(graph.num_nodes(), 7, 5);
  const auto one = build_layout_plans(graph, partition, 1);
  const auto two = build_layout_plans(graph, partition, 2);
  const auto again = build_layout_plans(graph, partition, 2);
  EXPECT_TRUE(same_plans(one, two));
  EXPECT_TRUE(same_plans(two, again));
}

TEST(LayoutPlan, RejectsPartitionOfWrongSize) {
  const CsrGraph graph = random_graph(10, 20, 1);
  Partition partition{2, {0, 1, 0}};
  EXPECT_THROW(build_layout_plans(graph, partition), InvalidParameter);
  Partition bad_block{2, std::vector<BlockID>(10, 2)};
  EXPECT_THROW(build_layout_plans(graph, bad_block), InvalidParameter);
}

TEST(LayoutPlan, VertexSetsAndLabels) {
  const CsrGraph graph = random_graph(40, 80, 3);
  const Partition partition = random_partition(40, 3, 4);
  auto plans = build_layout_plans(graph, partition);
  VertexSets sets;
  sets.train = {5, 1, 1, 30, 12};
  sets.val = {2, 39};
  sets.test = {0, 7, 8};
  for (NodeID u = 0; u < 40; ++u)
    sets.labels.push_back(static_cast<std::int64_t>(u % 5) - 1);
  attach_vertex_sets(plans, sets);
  std::multiset<NodeID> train, val, test;
  for (const LayoutPlan& plan : plans) {
    ASSERT_EQ(plan.labels.size(), plan.num_owned());
    for (NodeID i = 0; i < plan.num_owned(); ++i) {
      EXPECT_EQ(plan.labels[i], static_cast<std::int64_t>(plan.owned[i] % 5) - 1);
    }
    EXPECT_TRUE(std::is_sorted(plan.train_local.begin(), plan.train_local.end()));
    for (NodeID l : plan.train_local)
      train.insert(plan.owned[l]);
    for (NodeID l : plan.val_local)
      val.insert(plan.owned[l]);
    for (NodeID l : plan.test_local)
      test.insert(plan.owned[l]);
  }
  EXPECT_EQ(train, (std::multiset<NodeID>{1, 5, 12, 30}));
  EXPECT_EQ(val, (std::multiset<NodeID>{2, 39}));
  EXPECT_EQ(test, (std::multiset<NodeID>{0, 7, 8}));
  sets.labels.pop_back();
  EXPECT_THROW(attach_vertex_sets(plans, sets), InvalidParameter);
}

// ---- Vertex-cut layouts. ----

void check_edge_layout(NodeID n, const std::vector<NodeID>& src, const std::vector<NodeID>& dst,
                       const std::vector<BlockID>& eb, BlockID k,
                       const std::vector<EdgeLayoutBlock>& blocks) {
  ASSERT_EQ(blocks.size(), k);
  // Brute force: blocks holding each vertex, edges per block.
  std::vector<std::set<BlockID>> holders(n);
  std::vector<NodeID> degree(n, 0);
  for (std::size_t e = 0; e < src.size(); ++e) {
    holders[src[e]].insert(eb[e]);
    holders[dst[e]].insert(eb[e]);
    if (src[e] != dst[e]) {
      ++degree[src[e]];
      ++degree[dst[e]];
    }
  }
  std::map<NodeID, BlockID> master_of;
  std::uint64_t copies = 0, covered = 0;
  for (NodeID v = 0; v < n; ++v) {
    copies += holders[v].size();
    covered += !holders[v].empty();
  }
  std::uint64_t mirrors = 0;
  for (BlockID p = 0; p < k; ++p) {
    const EdgeLayoutBlock& b = blocks[p];
    std::vector<EdgeID> edges;
    for (std::size_t e = 0; e < src.size(); ++e) {
      if (eb[e] == p)
        edges.push_back(e);
    }
    EXPECT_EQ(b.edge_ids, edges);
    std::vector<NodeID> vertices;
    for (NodeID v = 0; v < n; ++v) {
      if (holders[v].count(p))
        vertices.push_back(v);
    }
    EXPECT_EQ(b.vertices, vertices);
    for (std::size_t i = 0; i < edges.size(); ++i) {
      EXPECT_EQ(b.vertices[b.edge_src[i]], src[edges[i]]);
      EXPECT_EQ(b.vertices[b.edge_dst[i]], dst[edges[i]]);
    }
    for (NodeID l = 0; l < b.vertices.size(); ++l) {
      const NodeID v = b.vertices[l];
      EXPECT_EQ(b.degree[l], degree[v]);
      EXPECT_TRUE(holders[v].count(b.master[l])) << "master must hold a copy";
      const auto [it, inserted] = master_of.emplace(v, b.master[l]);
      if (!inserted) {
        EXPECT_EQ(it->second, b.master[l]) << "one master per vertex";
      }
      mirrors += b.master[l] != p;
    }
    // Mirror list p->q = q's master list for p, same vertices in the same order.
    for (std::size_t i = 0; i < b.neighbors.size(); ++i) {
      const BlockID q = b.neighbors[i];
      const EdgeLayoutBlock& other = blocks[q];
      const auto it = std::find(other.neighbors.begin(), other.neighbors.end(), p);
      ASSERT_NE(it, other.neighbors.end());
      const std::size_t j = static_cast<std::size_t>(it - other.neighbors.begin());
      ASSERT_EQ(b.mirror_offsets[i + 1] - b.mirror_offsets[i],
                other.master_offsets[j + 1] - other.master_offsets[j]);
      for (EdgeID r = 0; r < b.mirror_offsets[i + 1] - b.mirror_offsets[i]; ++r) {
        const NodeID mine = b.mirror_local[b.mirror_offsets[i] + r];
        const NodeID theirs = other.master_local[other.master_offsets[j] + r];
        EXPECT_EQ(b.vertices[mine], other.vertices[theirs]);
        EXPECT_EQ(b.master[mine], q);
        EXPECT_EQ(other.master[theirs], q);
      }
    }
  }
  EXPECT_EQ(mirrors, copies - covered);
  EXPECT_EQ(summarize_layout(std::span<const EdgeLayoutBlock>(blocks)).rows_per_layer, mirrors);
  // Against the library's replication metrics.
  const EdgePartitionMetrics metrics =
      compute_edge_partition_metrics_sequential(n, src, dst, eb, k);
  EXPECT_EQ(metrics.vertex_copies, copies);
  EXPECT_EQ(metrics.covered_vertices, covered);
}

TEST(EdgeLayout, TriangleSplitOverTwoBlocks) {
  const std::vector<NodeID> src{0, 1, 0}, dst{1, 2, 2};
  const std::vector<BlockID> eb{0, 0, 1};
  const auto blocks = build_edge_layout(3, src, dst, eb, 2);
  check_edge_layout(3, src, dst, eb, 2, blocks);
  // 0 and 2 are in both blocks; 1 only in block 0. Master of 0 and 2: block 0 holds 2 of 0's
  // edges and 1 of 2's, block 1 holds 1 of each.
  EXPECT_EQ(blocks[0].vertices, (std::vector<NodeID>{0, 1, 2}));
  EXPECT_EQ(blocks[1].vertices, (std::vector<NodeID>{0, 2}));
  EXPECT_EQ(blocks[0].master[0], 0u);
}

TEST(EdgeLayout, RandomEdgePartitionsAgainstBruteForce) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const NodeID n = 50 + 7 * static_cast<NodeID>(seed);
    Rng rng(seed);
    std::vector<NodeID> src, dst;
    std::vector<BlockID> eb;
    const BlockID k = 2 + static_cast<BlockID>(seed % 4);
    for (int e = 0; e < 200; ++e) {
      src.push_back(static_cast<NodeID>(rng.below(n)));
      dst.push_back(static_cast<NodeID>(rng.below(n)));
      eb.push_back(static_cast<BlockID>(rng.below(k)));
    }
    const auto blocks = build_edge_layout(n, src, dst, eb, k, 2);
    check_edge_layout(n, src, dst, eb, k, blocks);
    const auto again = build_edge_layout(n, src, dst, eb, k, 1);
    for (BlockID p = 0; p < k; ++p) {
      EXPECT_EQ(blocks[p].master, again[p].master);
      EXPECT_EQ(blocks[p].mirror_local, again[p].mirror_local);
    }
  }
}

TEST(EdgeLayout, RejectsBadInput) {
  const std::vector<NodeID> src{0, 1}, dst{1, 5};
  const std::vector<BlockID> eb{0, 0};
  EXPECT_THROW(build_edge_layout(3, src, dst, eb, 2), InvalidParameter); // id >= n
  const std::vector<NodeID> dst_ok{1, 2};
  const std::vector<BlockID> eb_bad{0, 2};
  EXPECT_THROW(build_edge_layout(3, src, dst_ok, eb_bad, 2), InvalidParameter); // block >= k
  const std::vector<BlockID> eb_short{0};
  EXPECT_THROW(build_edge_layout(3, src, dst_ok, eb_short, 2), InvalidParameter);
}

} // namespace
} // namespace gnnpart
