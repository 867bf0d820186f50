// Equal gains in a localized FM search's queue (RefinementContext::fm_tie_break): a move into a
// lighter block leaves first, then the vertex rated last, so a search follows the chain of
// zero-gain moves its last move opened. Checked on small graphs over a plain view.
#include <vector>

#include <gtest/gtest.h>

#include "fm_search_once.h"
#include "multilevel_test_graphs.h"

namespace gnnpart {
namespace {

using ml_test::Searched;

Searched search(const CsrGraph& g, BlockID k, std::vector<BlockID> blocks,
                const std::vector<NodeID>& seeds, int max_bad, bool tie_break) {
  ml::RefinementContext ctx;
  ctx.fm_max_bad = max_bad;
  ctx.fm_tie_break = tie_break;
  return ml_test::search_once(g, k, std::move(blocks), 1.0, seeds, ctx, /*cheap=*/true);
}

// The path 0-...-7 (blocks 0 0 0 1 1 1 1 1): moving 3, 4, 5, 6 to block 0 gains 0 each, then 7
// gains 1. The path 8-9-10 with 10 joined to 11 and 12 (blocks 0 1 1 1 1): moving 9 gains 0,
// and 10 then loses 1 (its leaves win it back only two moves later). Ten isolated vertices in block
// 1 keep block 0 the lighter one throughout, so every candidate move has the same lighter-block
// bit.
CsrGraph chain_and_dead_end() {
  return ml_test::graph_from_edges(23, {{0, 1},
                                        {1, 2},
                                        {2, 3},
                                        {3, 4},
                                        {4, 5},
                                        {5, 6},
                                        {6, 7},
                                        {8, 9},
                                        {9, 10},
                                        {10, 11},
                                        {10, 12}});
}
std::vector<BlockID> chain_blocks() {
  std::vector<BlockID> blocks(23, 1);
  for (NodeID u : {0u, 1u, 2u, 8u})
    blocks[u] = 0;
  return blocks;
}

TEST(FmTieBreak, FollowsTheChainItsLastMoveOpened) {
  // Seeds 9 and 3, both gain 0: after 3 moves, 4 (rated last) goes before 9, and so on to 7
  // within 5 non-improving moves; the search then goes on from 9.
  const Searched s = search(chain_and_dead_end(), 2, chain_blocks(), {9, 3}, 5, true);
  EXPECT_GE(s.gain, 1);
  ASSERT_GE(s.best_len, 5u);
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_EQ(s.moves[j].u, 3 + j);
    EXPECT_EQ(s.moves[j].to, 0u);
  }
}

TEST(FmTieBreak, OffTheHeapStructureDecides) {
  // Without the tie-break the seed queued first (9) moves first; its dead end costs one of the
  // 5 non-improving moves, and the search stops before 7.
  const Searched s = search(chain_and_dead_end(), 2, chain_blocks(), {9, 3}, 5, false);
  EXPECT_EQ(s.gain, 0);
  EXPECT_EQ(s.best_len, 0u);
  ASSERT_FALSE(s.moves.empty());
  EXPECT_EQ(s.moves[0].u, 9u);
}

TEST(FmTieBreak, AMoveIntoALighterBlockFirst) {
  // u = 1 (path 0-1-2, blocks 0 0 1) and v = 4 (path 3-4-5, blocks 0 0 2) each gain 0 by moving
  // to their neighbour's block. Block 0 weighs 10, block 1 12 (isolated vertices), block 2 3:
  // only v's move goes into a lighter block, so v moves first although u was queued later.
  std::vector<BlockID> blocks = {0, 0, 1, 0, 0, 2};
  for (int i = 0; i < 6; ++i)
    blocks.push_back(0); // block 0: 4 + 6 = 10
  for (int i = 0; i < 11; ++i)
    blocks.push_back(1); // block 1: 1 + 11 = 12
  for (int i = 0; i < 2; ++i)
    blocks.push_back(2); // block 2: 1 + 2 = 3
  const auto n = static_cast<NodeID>(blocks.size());
  const CsrGraph g = ml_test::graph_from_edges(n, {{0, 1}, {1, 2}, {3, 4}, {4, 5}});
  const Searched s = search(g, 3, blocks, {4, 1}, 1, true);
  ASSERT_FALSE(s.moves.empty());
  EXPECT_EQ(s.moves[0].u, 4u);
  EXPECT_EQ(s.moves[0].to, 2u);
}

} // namespace
} // namespace gnnpart
