// Balance ties in localized FM (RefinementContext::fm_balance_ties): of two prefixes with the
// same gain the one with the more even block weights is the better, so a search keeps a chain of
// zero-gain moves out of a heavier block and drops one into a heavier block. Checked on small
// graphs over a plain view, and through parallel FM (balanced, exact, deterministic).
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "fm_search_once.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart {
namespace {

using ml_test::Searched;

Searched search(const CsrGraph& g, BlockID k, std::vector<BlockID> blocks,
                const std::vector<NodeID>& seeds, bool balance_ties) {
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 2;
  ctx.fm_balance_ties = balance_ties;
  return ml_test::search_once(g, k, std::move(blocks), 1.0, seeds, ctx, /*cheap=*/true);
}

// A triangle 0-9-10 with vertex 1 hanging from 0 and 2 from 1; `n` vertices, the rest isolated.
// With 0, 1, 9, 10 in block 0 and 2 in block 1, moving 1 to block 1 gains 0; after it 0 loses 1
// and then 9 (or 10) gains 0, so a search with fm_max_bad = 2 stops there, below its start.
CsrGraph triangle_with_tail(NodeID n, std::vector<std::pair<NodeID, NodeID>> more = {}) {
  std::vector<std::pair<NodeID, NodeID>> edges = {{0, 9}, {9, 10}, {10, 0}, {0, 1}, {1, 2}};
  edges.insert(edges.end(), more.begin(), more.end());
  return ml_test::graph_from_edges(n, edges);
}

// Blocks of triangle_with_tail: 0, 1, 9, 10 in block 0, 2 in block 1, the isolated vertices
// 3-8 in `isolated`, any further vertices in block 0.
std::vector<BlockID> tail_blocks(NodeID n, BlockID isolated) {
  std::vector<BlockID> blocks(n, 0);
  blocks[2] = 1;
  for (NodeID u = 3; u <= 8; ++u)
    blocks[u] = isolated;
  return blocks;
}

TEST(FmBalanceTies, KeepsAZeroGainMoveOutOfTheHeavierBlock) {
  // Block 0 weighs 10, block 1 weighs 1: the move of 1 evens them at gain 0.
  const CsrGraph g = triangle_with_tail(11);
  const Searched on = search(g, 2, tail_blocks(11, 0), {1}, true);
  EXPECT_EQ(on.gain, 0);
  ASSERT_EQ(on.best_len, 1u);
  EXPECT_EQ(on.moves[0].u, 1u);
  EXPECT_EQ(on.moves[0].to, 1u);
  ASSERT_GE(on.moves.size(), 3u); // it went on past the kept move (its stop count restarted)
  const Searched off = search(g, 2, tail_blocks(11, 0), {1}, false);
  EXPECT_EQ(off.gain, 0);
  EXPECT_EQ(off.best_len, 0u);
}

TEST(FmBalanceTies, DropsAZeroGainMoveIntoTheHeavierBlock) {
  // Block 0 weighs 4, block 1 weighs 7: the same move makes them less even.
  const Searched s = search(triangle_with_tail(11), 2, tail_blocks(11, 1), {1}, true);
  EXPECT_EQ(s.gain, 0);
  EXPECT_EQ(s.best_len, 0u);
}

TEST(FmBalanceTies, GainComesBeforeBalance) {
  // Vertex 12 (block 1) gains 1 by joining its only neighbour 11 in block 0, the heavier: the
  // prefix of that move is the best so far though less even; 1's move after it (gain 0, evens
  // the blocks again) extends the best prefix.
  const CsrGraph g = triangle_with_tail(13, {{11, 12}});
  std::vector<BlockID> blocks = tail_blocks(13, 0);
  blocks[12] = 1;
  const Searched on = search(g, 2, blocks, {1, 12}, true);
  EXPECT_EQ(on.gain, 1);
  ASSERT_EQ(on.best_len, 2u);
  EXPECT_EQ(on.moves[0].u, 12u);
  EXPECT_EQ(on.moves[1].u, 1u);
  const Searched off = search(g, 2, blocks, {1, 12}, false);
  EXPECT_EQ(off.gain, 1);
  EXPECT_EQ(off.best_len, 1u);
}

// Parallel FM applies prefixes with the same rule: balanced, exact gain, never worse, and the
// same result at any thread count.
TEST(FmBalanceTies, ParallelFmBalancedExactDeterministic) {
  ml::RefinementContext ctx;
  ctx.fm_parallel = true;
  ctx.fm_parallel_min_threads = 2;
  ctx.fm_passes = 2;
  ctx.fm_seeds = 8;
  ctx.fm_balance_ties = true;
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      const BlockLimits limits = uniform_limits(g, k, 0.03);
      const std::vector<BlockID> start = ml_test::round_robin(g.num_nodes(), k);
      std::vector<BlockID> first;
      Weight first_gain = 0;
      for (int threads : {1, 2, 4}) {
        ml::PartitionedGraph p(g, k, start);
        Weight gain = 0;
        tbb::task_arena(threads).execute([&] { gain = ml::parallel_fm_refine(p, limits, ctx, 5); });
        std::vector<BlockID> blocks(p.blocks().begin(), p.blocks().end());
        EXPECT_TRUE(p.balanced(limits));
        EXPECT_EQ(gain, ml::edge_cut(g, start) - ml::edge_cut(g, blocks));
        EXPECT_GT(gain, 0);
        if (first.empty()) {
          first = blocks;
          first_gain = gain;
        } else {
          EXPECT_EQ(blocks, first) << threads << " threads";
          EXPECT_EQ(gain, first_gain);
        }
      }
    }
}

} // namespace
} // namespace gnnpart
