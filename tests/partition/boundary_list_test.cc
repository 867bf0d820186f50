// GainCache::boundary_list keeps its last list and retests only the vertices that moves touched
// since: after any sequence of moves through moved() (few: the incremental path; many: the full
// scan), after rows changed through neighbour_moved() with forget_boundary(), and from a
// superset, the list is the one a plain scan of the adjacency gives, in increasing order.
#include <vector>

#include <gtest/gtest.h>

#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart {
namespace {

using ml_test::random_graph;
using ml_test::round_robin;

// The vertices with a neighbour in another block, in increasing order (positive edge weights).
std::vector<NodeID> plain_boundary(const ml::PartitionedGraph& p) {
  std::vector<NodeID> list;
  for (NodeID u = 0; u < p.graph().num_nodes(); ++u)
    for (const NodeID v : p.graph().neighbors(u))
      if (p.block(v) != p.block(u)) {
        list.push_back(u);
        break;
      }
  return list;
}

// Blocks grown as ranges of ids, so that most vertices are interior.
std::vector<BlockID> ranges(NodeID n, BlockID k) {
  std::vector<BlockID> blocks(n);
  for (NodeID u = 0; u < n; ++u)
    blocks[u] = static_cast<BlockID>(static_cast<std::uint64_t>(u) * k / n);
  return blocks;
}

TEST(BoundaryList, FollowsMovesThroughTheCache) {
  // A grid (local ids, few boundary vertices), a random graph and one with hubs.
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(40, 50));
  graphs.push_back(random_graph(3000, 9000, 4));
  graphs.push_back(ml_test::power_law_graph(3000, 4, 5));
  for (const CsrGraph& g : graphs)
    for (const BlockID k : {2u, 8u, 64u}) { // 64: the hubs' rows are dense
      ml::PartitionedGraph p(g, k, ranges(g.num_nodes(), k));
      ml::GainCache cache(g, p.blocks(), k);
      ASSERT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p));
      Rng rng(k);
      // Batches of 1 to 2000 moves: small ones take the incremental path, large ones the scan.
      for (const int batch : {1, 3, 20, 2000, 5, 0, 200, 7}) {
        for (int i = 0; i < batch; ++i) {
          const auto u = static_cast<NodeID>(rng.below(g.num_nodes()));
          const BlockID from = p.block(u);
          const auto to = static_cast<BlockID>(rng.below(k));
          p.move(u, to);
          cache.moved(g, u, from, to);
        }
        ASSERT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p))
            << "k " << k << " batch " << batch;
      }
      // fm_pass_seeds reads the same list through the cache as through the adjacency.
      const ml::PartitionedGraph& view = p;
      EXPECT_EQ(ml::fm_pass_seeds(view, 5, 1, &cache), ml::fm_pass_seeds(view, 5, 1));
    }
}

TEST(BoundaryList, RowsChangedOutsideMovedAreScannedAfterForget) {
  const CsrGraph g = random_graph(2000, 6000, 8);
  const BlockID k = 8;
  ml::PartitionedGraph p(g, k, ranges(g.num_nodes(), k));
  ml::GainCache cache(g, p.blocks(), k);
  ASSERT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p));
  // As the block-group FM's threads do: the rows updated one neighbour at a time.
  cache.forget_boundary();
  Rng rng(3);
  for (int i = 0; i < 10; ++i) {
    const auto u = static_cast<NodeID>(rng.below(g.num_nodes()));
    const BlockID from = p.block(u);
    const BlockID to = (from + 1) % k;
    p.move(u, to);
    for (const NodeID v : g.neighbors(u))
      cache.neighbour_moved(v, from, to, 1);
  }
  EXPECT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p));
  // And the list it keeps from that scan serves the next moves.
  for (int i = 0; i < 4; ++i) {
    const auto u = static_cast<NodeID>(rng.below(g.num_nodes()));
    const BlockID from = p.block(u);
    p.move(u, 0);
    cache.moved(g, u, from, 0);
  }
  EXPECT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p));
}

TEST(BoundaryList, SupersetGivesTheSameListAndIsKept) {
  const CsrGraph g = random_graph(1500, 4000, 2);
  const BlockID k = 4;
  ml::PartitionedGraph p(g, k, round_robin(g.num_nodes(), k));
  const std::vector<NodeID> boundary = plain_boundary(p);
  // The boundary plus every 5th vertex: a superset in increasing order.
  std::vector<NodeID> superset;
  for (NodeID u = 0, i = 0; u < g.num_nodes(); ++u) {
    const bool listed = i < boundary.size() && boundary[i] == u;
    i += listed ? 1 : 0;
    if (listed || u % 5 == 0)
      superset.push_back(u);
  }
  ml::GainCache cache(g, p.blocks(), k, &superset);
  ASSERT_EQ(cache.boundary_list(g, p.blocks(), &superset), boundary);
  const NodeID u = boundary.front();
  const BlockID from = p.block(u);
  p.move(u, (from + 1) % k);
  cache.moved(g, u, from, p.block(u));
  EXPECT_EQ(cache.boundary_list(g, p.blocks()), plain_boundary(p));
}

} // namespace
} // namespace gnnpart
