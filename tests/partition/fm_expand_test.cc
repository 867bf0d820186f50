// Which neighbours of a move enter a localized FM search: with fm_expand_target off, those in
// the move's source block and in third blocks, not those in its target block (the move only
// lowered their gains). Checked on paths over a plain view of the partition.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "plain_fm_view.h"

namespace gnnpart {
namespace {

using ml_test::PlainView;

const CsrGraph& path8() {
  static const CsrGraph g =
      ml_test::graph_from_edges(8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}});
  return g;
}

// Vertex 3 sits in block 1 between block-0 vertices: moving it to block 0 gains 2. Vertex 4 is
// then in the move's target block, with a neighbour in block 1 (a move back of gain 0).
std::vector<ml::FmMove> search_from_3(bool expand_target) {
  ml::PartitionedGraph p(path8(), 2, {0, 0, 0, 1, 0, 1, 1, 1});
  const BlockLimits limits = uniform_limits(path8(), 2, 0.5);
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 3;
  ctx.fm_expand_target = expand_target;
  PlainView view(p, limits);
  ml::FmSearch<PlainView> search(view, path8(), ctx);
  const std::vector<std::uint8_t> locked(path8().num_nodes(), 0);
  const std::vector<NodeID> seeds = {3};
  EXPECT_EQ(search.run(seeds, locked), 2);
  EXPECT_EQ(search.best_len(), 1u);
  return search.moves();
}

TEST(FmExpandTarget, NeighboursInTheTargetBlockStayOut) {
  const std::vector<ml::FmMove> moves = search_from_3(false);
  ASSERT_EQ(moves.size(), 1u); // 2 and 4 are in block 0, the target of 3's move
  EXPECT_EQ(moves[0].u, 3u);
  EXPECT_EQ(moves[0].to, 0u);
}

TEST(FmExpandTarget, OnTheyEnterTheSearch) {
  const std::vector<ml::FmMove> moves = search_from_3(true);
  ASSERT_GT(moves.size(), 1u);
  EXPECT_EQ(moves[1].u, 4u); // back to block 1, gain 0
}

TEST(FmExpandTarget, NeighboursInTheSourceBlockEnter) {
  // Blocks 0 0 0 | 1 1 1 1 1 (sizes 3 and 5, limit 8): moving 3, 4, ... to block 0 one after
  // the other gains 0 each until the last; each next vertex is in the source block of the move
  // before it, so the search walks the chain without fm_expand_target.
  ml::PartitionedGraph p(path8(), 2, {0, 0, 0, 1, 1, 1, 1, 1});
  const BlockLimits limits = uniform_limits(path8(), 2, 1.0);
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 10;
  ctx.fm_expand_target = false;
  PlainView view(p, limits);
  ml::FmSearch<PlainView> search(view, path8(), ctx);
  const std::vector<std::uint8_t> locked(path8().num_nodes(), 0);
  const std::vector<NodeID> seeds = {3};
  EXPECT_EQ(search.run(seeds, locked), 1); // all of 3..7 in block 0: cut 0
  ASSERT_EQ(search.best_len(), 5u);
  for (std::size_t j = 0; j < 5; ++j)
    EXPECT_EQ(search.moves()[j].u, 3 + j);
}

} // namespace
} // namespace gnnpart
