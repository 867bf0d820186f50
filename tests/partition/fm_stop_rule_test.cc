// When a localized FM search stops (refinement/fm_stop_rule.h). Without the random walk a search
// stops after exactly fm_max_bad non-improving moves; with it, stops() is the walk's test
// recomputed here with a two-pass variance, never true before fm_max_bad moves and always at
// fm_walk_max_bad; a steady loss and a walk back at its best level stop at fm_max_bad. On a
// power-law graph some searches go past fm_max_bad (a hub's gain differs much from its leaves')
// and none past fm_walk_max_bad, and FM with the default preset (which uses the walk) reports the
// exact cut change, keeps the balance and gives the same partition for the same seed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "core/block_limits.h"
#include "core/options.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_refiner.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "partition/multilevel/refinement/fm_stop_rule.h"
#include "plain_fm_view.h"

namespace gnnpart {
namespace {

ml::RefinementContext walk_context(double alpha) {
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 5;
  ctx.fm_walk_max_bad = 12;
  ctx.fm_walk_alpha = alpha;
  return ctx;
}

// The walk's test from its definition: S^2 >= alpha p var, var the sample variance.
bool reference_stops(const std::vector<Weight>& gains, const ml::RefinementContext& ctx) {
  const int p = static_cast<int>(gains.size());
  if (p < ctx.fm_max_bad)
    return false;
  Weight sum = 0;
  for (Weight g : gains)
    sum += g;
  if (ctx.fm_walk_alpha <= 0 || p >= ctx.fm_walk_max_bad || sum == 0 || p < 2)
    return true;
  const double mean = static_cast<double>(sum) / p;
  double squares = 0;
  for (Weight g : gains)
    squares += (static_cast<double>(g) - mean) * (static_cast<double>(g) - mean);
  const double var = squares / (p - 1);
  return static_cast<double>(sum) * static_cast<double>(sum) >= ctx.fm_walk_alpha * p * var;
}

// Whether S^2 and alpha p var are too close for rounding to tell them apart.
bool near_tie(const std::vector<Weight>& gains, const ml::RefinementContext& ctx) {
  const int p = static_cast<int>(gains.size());
  if (p < 2 || ctx.fm_walk_alpha <= 0)
    return false;
  double sum = 0;
  for (Weight g : gains)
    sum += static_cast<double>(g);
  const double mean = sum / p;
  double squares = 0;
  for (Weight g : gains)
    squares += (static_cast<double>(g) - mean) * (static_cast<double>(g) - mean);
  const double lhs = sum * sum, rhs = ctx.fm_walk_alpha * p * squares / (p - 1);
  return std::abs(lhs - rhs) <= 1e-9 * std::max(1.0, lhs);
}

TEST(FmStopRule, WithoutTheWalkStopsAfterExactlyMaxBadMoves) {
  const ml::RefinementContext ctx = walk_context(0);
  ml::FmStopRule rule(ctx);
  for (int i = 0; i < ctx.fm_max_bad; ++i) {
    EXPECT_FALSE(rule.stops());
    rule.add(i % 2 == 0 ? -7 : 5); // a walk that would go on with the walk test
  }
  EXPECT_TRUE(rule.stops());
  rule.improved();
  EXPECT_FALSE(rule.stops());
  EXPECT_EQ(rule.steps(), 0);
}

TEST(FmStopRule, SteadyLossAndZeroDeficitStopAtMaxBad) {
  const ml::RefinementContext ctx = walk_context(2); // fm_max_bad 5
  ml::FmStopRule loss(ctx), level(ctx);
  for (int i = 0; i < ctx.fm_max_bad; ++i) {
    EXPECT_FALSE(loss.stops());
    loss.add(-1); // variance 0: the deficit is certain
  }
  EXPECT_TRUE(loss.stops());
  for (const Weight g : {-3, 3, -3, 3, -3}) {
    EXPECT_FALSE(level.stops());
    level.add(g);
  }
  EXPECT_FALSE(level.stops()); // deficit 3 against a step deviation of about 3.3
  level.add(3);                // back at the best level
  EXPECT_TRUE(level.stops());
}

TEST(FmStopRule, NoisyWalkGoesOnUntilItsDeficitIsLargeOrTheCap) {
  const ml::RefinementContext ctx = walk_context(2);
  ml::FmStopRule rule(ctx);
  // -20, +19, -20, +19, ...: a deficit of 1-20 against a step deviation of about 20.
  int steps = 0;
  while (!rule.stops()) {
    rule.add(steps % 2 == 0 ? -20 : 19);
    ++steps;
  }
  EXPECT_EQ(steps, ctx.fm_walk_max_bad);
}

TEST(FmStopRule, MatchesTheWalkTestOnRandomWalks) {
  Rng rng(11);
  for (double alpha : {0.0, 1.0, 2.0, 4.0}) {
    const ml::RefinementContext ctx = walk_context(alpha);
    for (int trial = 0; trial < 500; ++trial) {
      ml::FmStopRule rule(ctx);
      std::vector<Weight> gains;
      const Weight spread = 1 + static_cast<Weight>(rng.below(30));
      const Weight drift = static_cast<Weight>(rng.below(4));
      for (int step = 0; step < ctx.fm_walk_max_bad + 3; ++step) {
        if (near_tie(gains, ctx))
          break; // the two ways of rounding may disagree there
        const bool expected = reference_stops(gains, ctx);
        EXPECT_EQ(rule.stops(), expected)
            << "alpha " << alpha << " trial " << trial << " step " << step;
        if (expected)
          break;
        const Weight g = static_cast<Weight>(rng.below(2 * spread + 1)) - spread - drift;
        rule.add(g);
        gains.push_back(g);
      }
    }
  }
}

// One pass of searches of 16 seeds over all vertices on a round-robin start, moves past each
// best prefix rolled back; returns the longest tail (moves past the best prefix) of a search.
std::size_t longest_tail(const CsrGraph& g, BlockID k, const ml::RefinementContext& ctx) {
  ml::PartitionedGraph p(g, k, ml_test::round_robin(g.num_nodes(), k));
  const BlockLimits limits = uniform_limits(g, k, 0.03);
  ml_test::PlainView view(p, limits);
  ml::FmSearch<ml_test::PlainView> search(view, g, ctx);
  std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  std::size_t tail = 0;
  for (NodeID first = 0; first < g.num_nodes(); first += 16) {
    std::vector<NodeID> seeds;
    for (NodeID u = first; u < std::min<NodeID>(first + 16, g.num_nodes()); ++u)
      if (!locked[u])
        seeds.push_back(u);
    const Weight before = ml::edge_cut(g, p.blocks());
    const Weight gain = search.run(seeds, locked);
    const auto& moves = search.moves();
    for (std::size_t j = moves.size(); j > search.best_len(); --j)
      view.move(moves[j - 1].u, moves[j - 1].from);
    EXPECT_EQ(ml::edge_cut(g, p.blocks()), before - gain);
    EXPECT_TRUE(p.balanced(limits));
    search.lock_kept(locked);
    tail = std::max(tail, moves.size() - search.best_len());
  }
  return tail;
}

TEST(FmStopRule, SearchesOnAPowerLawGraphGoPastMaxBadOnlyWithTheWalk) {
  const CsrGraph g = ml_test::power_law_graph(3000, 3, 4);
  const ml::RefinementContext off = walk_context(0), on = walk_context(2);
  EXPECT_LE(longest_tail(g, 8, off), static_cast<std::size_t>(off.fm_max_bad));
  const std::size_t tail = longest_tail(g, 8, on);
  EXPECT_GT(tail, static_cast<std::size_t>(on.fm_max_bad));
  EXPECT_LE(tail, static_cast<std::size_t>(on.fm_walk_max_bad));
}

TEST(FmStopRule, DefaultPresetFmIsExactBalancedAndDeterministic) {
  PartitionOptions o;
  const ml::RefinementContext ctx = ml::create_context(o).refinement;
  ASSERT_GT(ctx.fm_walk_alpha, 0);
  for (int threads : {1, 4}) {
    tbb::task_arena arena(threads);
    arena.execute([&] {
      for (const CsrGraph& g : ml_test::refinement_test_graphs())
        for (BlockID k : {2u, 8u, 32u}) {
          SCOPED_TRACE(testing::Message()
                       << "threads " << threads << " n " << g.num_nodes() << " k " << k);
          const BlockLimits limits = uniform_limits(g, k, 0.03);
          std::vector<std::vector<BlockID>> runs;
          for (int run = 0; run < 2; ++run) {
            ml::PartitionedGraph p(g, k, ml_test::round_robin(g.num_nodes(), k));
            const Weight start = ml::edge_cut(g, p.blocks());
            const Weight gain = ml::fm_refine(p, limits, ctx, 5);
            EXPECT_EQ(ml::edge_cut(g, p.blocks()), start - gain);
            EXPECT_TRUE(p.balanced(limits));
            runs.emplace_back(p.blocks().begin(), p.blocks().end());
          }
          EXPECT_EQ(runs[0], runs[1]);
        }
    });
  }
}

} // namespace
} // namespace gnnpart
