// GainCache (gain_cache.h): for_each lists exactly the blocks of nonzero connection, in block
// order for a dense row (degree >= k), for k that are and are not multiples of the group of
// entries a dense row tests at once; conn, boundary and for_each agree with counts from the
// adjacency, before and after moves; for the packed and the wide layouts. A list row keeps the
// order its documented updates give (from's entry dropped at zero by moving the last entry into
// its place, to's appended when new), through moved() and neighbour_moved().
#include <algorithm>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "multilevel_test_graphs.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart {
namespace {

// Connections of u per block, counted from the adjacency.
std::vector<Weight> counted(const CsrGraph& g, std::span<const BlockID> blocks, BlockID k,
                            NodeID u) {
  std::vector<Weight> conn(k, 0);
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
    conn[blocks[g.edge_target(e)]] += g.edge_weight(e);
  return conn;
}

void expect_rows(const ml::GainCache& cache, const CsrGraph& g, std::span<const BlockID> blocks,
                 BlockID k) {
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    const std::vector<Weight> conn = counted(g, blocks, k, u);
    std::vector<Weight> listed(k, 0);
    std::vector<BlockID> order;
    cache.for_each(u, [&](BlockID b, Weight c) {
      ASSERT_LT(b, k);
      EXPECT_EQ(listed[b], 0) << "block " << b << " listed twice";
      listed[b] = c;
      order.push_back(b);
    });
    EXPECT_EQ(listed, conn) << "vertex " << u;
    if (g.degree(u) >= k) {
      EXPECT_TRUE(std::is_sorted(order.begin(), order.end())) << "dense row of vertex " << u;
    }
    bool other = false;
    for (BlockID b = 0; b < k; ++b) {
      EXPECT_EQ(cache.conn(u, b), conn[b]) << "vertex " << u << " block " << b;
      other = other || (b != blocks[u] && conn[b] != 0);
    }
    EXPECT_EQ(cache.boundary(u, blocks[u]), other) << "vertex " << u;
  }
}

TEST(GainCache, RowsMatchTheAdjacencyBeforeAndAfterMoves) {
  // A hub of degree 199 (dense for every k here) and vertices of degree about 12 (dense at
  // k = 5, 8 and lists at 13, 16, 21, or either); the power-law graph with weights; the random
  // graph again with edge weights near 2^24, whose largest weighted degrees (above 2^28) need
  // the wide layout from k = 16 on (4 or 5 block bits leave 28 or 27 for conn).
  std::vector<CsrGraph> graphs;
  graphs.reserve(4);
  graphs.push_back(ml_test::star_graph(200));
  graphs.push_back(ml_test::random_graph(300, 1800, 3));
  graphs.push_back(ml_test::weighted_power_law_graph());
  {
    const CsrGraph& plain = graphs[1];
    std::vector<Weight> ew(plain.num_directed_edges());
    for (NodeID u = 0; u < plain.num_nodes(); ++u)
      for (EdgeID e = plain.first_edge(u); e < plain.last_edge(u); ++e)
        ew[e] = (Weight{1} << 24) + std::min(u, plain.edge_target(e)) % 7;
    const auto offsets = plain.offsets();
    const auto adjacency = plain.adjacency();
    graphs.emplace_back(std::vector<EdgeID>(offsets.begin(), offsets.end()),
                        std::vector<NodeID>(adjacency.begin(), adjacency.end()), std::move(ew), 1,
                        std::vector<Weight>(plain.num_nodes(), 1));
  }
  for (const CsrGraph& g : graphs)
    for (BlockID k : {5u, 8u, 13u, 16u, 21u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      std::vector<BlockID> blocks(g.num_nodes());
      for (NodeID u = 0; u < g.num_nodes(); ++u)
        blocks[u] = static_cast<BlockID>((u * 7 + u / 3) % k);
      ml::PartitionedGraph p(g, k, blocks);
      ml::GainCache cache(g, p.blocks(), k);
      if (g.edge_weight(0) > (Weight{1} << 23) && k >= 16) {
        EXPECT_FALSE(cache.packed());
      }
      expect_rows(cache, g, p.blocks(), k);
      // Moves that empty some blocks of some rows and fill others.
      for (NodeID u = 0; u < g.num_nodes(); u += 3) {
        const BlockID from = p.block(u);
        const BlockID to = (from + 1 + u % 2) % k;
        p.move(u, to);
        cache.moved(g, u, from, to);
      }
      expect_rows(cache, g, p.blocks(), k);
    }
}

// A list row as the cache documents its updates: (block, conn) in row order.
using ModelRow = std::vector<std::pair<BlockID, Weight>>;

void model_moved(ModelRow& row, BlockID from, BlockID to, Weight w) {
  const auto at = [&](BlockID b) {
    return std::find_if(row.begin(), row.end(), [b](const auto& x) { return x.first == b; });
  };
  auto to_it = at(to);
  if (to_it != row.end())
    to_it->second += w;
  auto from_it = at(from);
  from_it->second -= w;
  const bool appended = to_it == row.end();
  if (from_it->second == 0) {
    *from_it = row.back();
    row.pop_back();
  }
  if (appended)
    row.emplace_back(to, w);
}

TEST(GainCache, ListRowsKeepTheirOrderThroughMoves) {
  const CsrGraph g = ml_test::random_graph(400, 3000, 11); // degrees about 15: lists at k = 32
  for (const BlockID k : {32u, 64u}) {
    SCOPED_TRACE(testing::Message() << "k " << k);
    std::vector<BlockID> blocks(g.num_nodes());
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      blocks[u] = static_cast<BlockID>((u * 13 + u / 5) % k);
    ml::PartitionedGraph p(g, k, blocks);
    ml::GainCache cache(g, p.blocks(), k);
    std::vector<ModelRow> model(g.num_nodes());
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      cache.for_each(u, [&](BlockID b, Weight c) { model[u].emplace_back(b, c); });
    for (int step = 0; step < 3000; ++step) {
      const NodeID u = static_cast<NodeID>((step * 7919) % g.num_nodes());
      const BlockID from = p.block(u);
      const BlockID to = static_cast<BlockID>((from + 1 + step % 5) % k);
      p.move(u, to);
      if (step % 2 == 0) {
        cache.moved(g, u, from, to);
      } else {
        for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
          cache.neighbour_moved(g.edge_target(e), from, to,
                                static_cast<std::int32_t>(g.edge_weight(e)));
      }
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
        model_moved(model[g.edge_target(e)], from, to, g.edge_weight(e));
    }
    NodeID lists = 0;
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      if (cache.row_size(u) == ml::GainCache::kDense)
        continue;
      ++lists;
      ModelRow row;
      cache.for_each(u, [&](BlockID b, Weight c) { row.emplace_back(b, c); });
      EXPECT_EQ(row, model[u]) << "vertex " << u;
    }
    EXPECT_GT(lists, g.num_nodes() / 2);
  }
}

} // namespace
} // namespace gnnpart
