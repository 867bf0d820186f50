// Which neighbours of a move enter a localized FM search: with fm_expand_target off, those in
// the move's source block and in third blocks, not those in its target block (the move only
// lowered their gains). Checked on paths over a plain view of the partition.
#include <vector>

#include <gtest/gtest.h>

#include "fm_search_once.h"
#include "multilevel_test_graphs.h"

namespace gnnpart {
namespace {

using ml_test::Searched;

// One search from vertex 3 of the path 0-1-...-7 with the given blocks (k = 2).
Searched search_from_3(std::vector<BlockID> blocks, double epsilon, int max_bad,
                       bool expand_target) {
  const CsrGraph g =
      ml_test::graph_from_edges(8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}});
  ml::RefinementContext ctx;
  ctx.fm_max_bad = max_bad;
  ctx.fm_expand_target = expand_target;
  return ml_test::search_once(g, 2, std::move(blocks), epsilon, {3}, ctx);
}

// Vertex 3 sits in block 1 between block-0 vertices: moving it to block 0 gains 2. Vertex 4 is
// then in the move's target block, with a neighbour in block 1 (a move back of gain 0).
const std::vector<BlockID> kIsland = {0, 0, 0, 1, 0, 1, 1, 1};

TEST(FmExpandTarget, NeighboursInTheTargetBlockStayOut) {
  const Searched s = search_from_3(kIsland, 0.5, 3, false);
  EXPECT_EQ(s.gain, 2);
  EXPECT_EQ(s.best_len, 1u);
  ASSERT_EQ(s.moves.size(), 1u); // 2 and 4 are in block 0, the target of 3's move
  EXPECT_EQ(s.moves[0].u, 3u);
  EXPECT_EQ(s.moves[0].to, 0u);
}

TEST(FmExpandTarget, OnTheyEnterTheSearch) {
  const Searched s = search_from_3(kIsland, 0.5, 3, true);
  EXPECT_EQ(s.gain, 2);
  EXPECT_EQ(s.best_len, 1u);
  ASSERT_GT(s.moves.size(), 1u);
  EXPECT_EQ(s.moves[1].u, 4u); // back to block 1, gain 0
}

TEST(FmExpandTarget, NeighboursInTheSourceBlockEnter) {
  // Blocks 0 0 0 | 1 1 1 1 1 (limit 8): moving 3, 4, ... to block 0 one after the other gains
  // 0 each until the last; each next vertex is in the source block of the move before it, so
  // the search walks the chain without fm_expand_target.
  const Searched s = search_from_3({0, 0, 0, 1, 1, 1, 1, 1}, 1.0, 10, false);
  EXPECT_EQ(s.gain, 1); // all of 3..7 in block 0: cut 0
  ASSERT_EQ(s.best_len, 5u);
  for (std::size_t j = 0; j < 5; ++j)
    EXPECT_EQ(s.moves[j].u, 3 + j);
}

} // namespace
} // namespace gnnpart
