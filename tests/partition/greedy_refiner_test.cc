// Greedy k-way refinement (greedy_refiner.h, Refiner::kGreedy): positive moves, and zero-gain
// moves only into a block lighter than the source; balanced, exact gain, never worse, the gain
// cache kept current, the same result for the same seed. Every result recomputed from the graph.
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "multilevel_test_graphs.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/greedy_refiner.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart {
namespace {

struct Greedy {
  std::vector<BlockID> blocks;
  Weight gain = 0;
};

Greedy run_greedy(const CsrGraph& g, BlockID k, std::vector<BlockID> start, double epsilon,
                  int passes, std::uint64_t seed) {
  const BlockLimits limits = uniform_limits(g, k, epsilon);
  ml::PartitionedGraph p(g, k, std::move(start));
  ml::GainCache cache(g, p.blocks(), k);
  Greedy out;
  out.gain = ml::greedy_refine(p, limits, passes, seed, cache);
  out.blocks.assign(p.blocks().begin(), p.blocks().end());
  // The cache describes the result: the same connections as one built from it.
  const ml::GainCache fresh(g, out.blocks, k);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (BlockID b = 0; b < k; ++b)
      EXPECT_EQ(cache.conn(u, b), fresh.conn(u, b)) << "vertex " << u << " block " << b;
  return out;
}

TEST(GreedyRefiner, BalancedExactNeverWorseDeterministic) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u, 32u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      // Round robin shuffled (on the grid, plain round robin at k = 8 is a local optimum for
      // greedy moves: every vertex has its two vertical neighbours in its own block).
      std::vector<BlockID> start = ml_test::round_robin(g.num_nodes(), k);
      std::shuffle(start.begin(), start.end(), std::mt19937(k));
      const Greedy r = run_greedy(g, k, start, 0.03, 3, 7);
      ml_test::check_result(g, ml_test::as_partition(r.blocks, k), k, 0.03);
      EXPECT_EQ(r.gain, ml::edge_cut(g, start) - ml::edge_cut(g, r.blocks));
      EXPECT_GT(r.gain, 0);
      const Greedy again = run_greedy(g, k, start, 0.03, 3, 7);
      EXPECT_EQ(again.blocks, r.blocks);
      EXPECT_EQ(again.gain, r.gain);
    }
}

// The first pass's list, when asked for, is the start's boundary in the pass's seeded order
// (what fm_pass_seeds gives FM for that seed): the list refine_level hands to strict FM.
TEST(GreedyRefiner, FirstListIsTheStartsShuffledBoundary) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u}) {
      std::vector<BlockID> start = ml_test::round_robin(g.num_nodes(), k);
      std::shuffle(start.begin(), start.end(), std::mt19937(k + 1));
      ml::PartitionedGraph before(g, k, start);
      const ml::GainCache start_cache(g, before.blocks(), k);
      const std::vector<NodeID> expected = ml::fm_pass_seeds(before, 11, 0, &start_cache);
      ml::PartitionedGraph p(g, k, start);
      ml::GainCache cache(g, p.blocks(), k);
      std::vector<NodeID> first;
      ml::greedy_refine(p, uniform_limits(g, k, 0.03), 2, 11, cache, &first);
      EXPECT_EQ(first, expected);
    }
}

// The path 0-1-2-3 (blocks 0 0 1 1): 1 gains 0 by moving to block 1, 2 gains 0 by moving to
// block 0. Only the move into the block that stays the lighter is made; six isolated vertices
// decide which block that is. (0 and 3 gain only after such a move, and were no boundary
// vertices when the pass began.)
TEST(GreedyRefiner, ZeroGainMovesOnlyEvenTheBlocks) {
  const CsrGraph g = ml_test::graph_from_edges(10, {{0, 1}, {1, 2}, {2, 3}});
  std::vector<BlockID> heavy0 = {0, 0, 1, 1, 0, 0, 0, 0, 0, 0}; // 8 against 2
  const Greedy into1 = run_greedy(g, 2, heavy0, 1.0, 1, 3);
  EXPECT_EQ(into1.gain, 0);
  std::vector<BlockID> expected = heavy0;
  expected[1] = 1;
  EXPECT_EQ(into1.blocks, expected);

  std::vector<BlockID> heavy1 = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}; // 2 against 8
  const Greedy into0 = run_greedy(g, 2, heavy1, 1.0, 1, 3);
  EXPECT_EQ(into0.gain, 0);
  expected = heavy1;
  expected[2] = 0;
  EXPECT_EQ(into0.blocks, expected);
}

// The passes as the header states them, every boundary vertex's row read in the list's order
// (the refiner first reads the rows in parallel and then skips those that cannot gain): the
// sequential twin, with the refiner's own per-vertex decision (greedy_move), so that what it
// checks is the skipping.
Greedy reference_greedy(const CsrGraph& g, BlockID k, std::vector<BlockID> start, double epsilon,
                        int passes, std::uint64_t seed) {
  const BlockLimits limits = uniform_limits(g, k, epsilon);
  ml::PartitionedGraph p(g, k, std::move(start));
  ml::GainCache cache(g, p.blocks(), k);
  Greedy out;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t moved = 0;
    for (const NodeID u : ml::fm_pass_seeds(p, seed, pass, &cache)) {
      const BlockID own = p.block(u);
      const ml::GreedyMove m = ml::greedy_move(p, limits, cache, u);
      if (m.target == kInvalidBlockID)
        continue;
      p.move(u, m.target);
      cache.moved(g, u, own, m.target);
      out.gain += m.gain;
      ++moved;
    }
    if (moved == 0)
      break;
  }
  out.blocks.assign(p.blocks().begin(), p.blocks().end());
  return out;
}

// The same moves as the twin that reads every row in order, from starts where many vertices
// gain only after a neighbour moved (shuffled round robin), on 1 and 2 threads.
TEST(GreedyRefiner, SameMovesAsReadingEveryRow) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u, 32u})
      for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k << " threads "
                                        << threads);
        std::vector<BlockID> start = ml_test::round_robin(g.num_nodes(), k);
        std::shuffle(start.begin(), start.end(), std::mt19937(k + 5));
        const Greedy expected = reference_greedy(g, k, start, 0.03, 3, 9);
        Greedy r;
        tbb::task_arena(threads).execute([&] { r = run_greedy(g, k, start, 0.03, 3, 9); });
        EXPECT_EQ(r.blocks, expected.blocks);
        EXPECT_EQ(r.gain, expected.gain);
        EXPECT_GT(r.gain, 0);
      }
}

// No negative move: a vertex whose every neighbour is in its own block stays.
TEST(GreedyRefiner, NoMoveFromALocalOptimum) {
  const CsrGraph g = ml_test::grid_graph(8, 8);
  std::vector<BlockID> halves(64);
  for (NodeID u = 0; u < 64; ++u)
    halves[u] = u < 32 ? 0 : 1; // rows 0-3 and 4-7: a straight cut of 8 edges
  const Greedy r = run_greedy(g, 2, halves, 0.5, 3, 1); // room, but every move loses
  EXPECT_EQ(r.gain, 0);
  EXPECT_EQ(r.blocks, halves);
}

} // namespace
} // namespace gnnpart
