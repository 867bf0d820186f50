// KeptGainCache (the gain cache the FM runs of one level share): after an FM run that kept it,
// the cache it hands out holds exactly the connections of a fresh build; after a move behind
// its back it is built anew; refine_level with the shared cache stays deterministic and
// balanced, and its cut is recomputed independently; supports() and positive_edge_weights()
// answer as the graph's edge weights say.
#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/fm_refiner.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/kept_gain_cache.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart {
namespace {

using ml_test::plain_cut;
using ml_test::random_graph;
using ml_test::round_robin;

// Every connection of `cache` equals that of a cache built from p's blocks now.
void expect_current(const ml::GainCache& cache, const ml::PartitionedGraph& p) {
  const ml::GainCache fresh(p.graph(), p.blocks(), p.k());
  for (NodeID u = 0; u < p.graph().num_nodes(); ++u)
    for (BlockID b = 0; b < p.k(); ++b)
      ASSERT_EQ(cache.conn(u, b), fresh.conn(u, b)) << "vertex " << u << " block " << b;
}

ml::RefinementContext default_refinement(BlockID k) {
  PartitionOptions o;
  o.k = k;
  return ml::create_context(o).refinement;
}

TEST(KeptGainCache, ReusedAfterFmAndRebuiltAfterOutsideMoves) {
  for (const BlockID k : {4u, 16u}) { // 16: some rows are dense (degree >= k)
    const CsrGraph g = random_graph(600, 6000, 3);
    const BlockLimits limits = uniform_limits(g, k, 0.03);
    ml::PartitionedGraph p(g, k, round_robin(g.num_nodes(), k));
    ml::KeptGainCache kept;
    const Weight before = ml::edge_cut(g, p.blocks());
    const Weight gain = ml::fm_refine(p, limits, default_refinement(k), 5, &kept);
    ASSERT_GT(gain, 0);
    EXPECT_EQ(plain_cut(g, p.blocks()), before - gain);
    const ml::GainCache* first = &kept.of(p);
    expect_current(*first, p);
    kept.matched(p);
    // A second FM run from the kept cache: still exact afterwards.
    ml::fm_refine(p, limits, default_refinement(k), 6, &kept);
    expect_current(kept.of(p), p);
    kept.matched(p);
    // A move the cache did not see: the next request builds a current one.
    NodeID u = 0;
    while (g.degree(u) == 0)
      ++u;
    p.move(u, (p.block(u) + 1) % k);
    expect_current(kept.of(p), p);
    // Without matched() after of(), the cache is not trusted again either.
    p.move(u, (p.block(u) + 1) % k);
    expect_current(kept.of(p), p);
  }
}

// FM's seeds read from a gain cache are those read from the adjacency (positive weights), before
// and after FM moved vertices and kept the cache current, for list and dense rows.
TEST(KeptGainCache, SeedsFromTheCacheAreTheBoundary) {
  const CsrGraph g = random_graph(800, 5000, 17);
  for (const BlockID k : {2u, 8u, 32u}) {
    const BlockLimits limits = uniform_limits(g, k, 0.03);
    ml::PartitionedGraph p(g, k, round_robin(g.num_nodes(), k));
    ml::KeptGainCache kept;
    for (int step = 0; step < 2; ++step) {
      const ml::GainCache& cache = kept.of(p);
      std::vector<NodeID> plain;
      for (NodeID u = 0; u < g.num_nodes(); ++u)
        for (NodeID v : g.neighbors(u))
          if (p.block(v) != p.block(u)) {
            plain.push_back(u);
            break;
          }
      std::vector<NodeID> from_cache = ml::fm_pass_seeds(p, 3, step, &cache);
      EXPECT_EQ(from_cache, ml::fm_pass_seeds(p, 3, step));
      std::sort(from_cache.begin(), from_cache.end());
      EXPECT_EQ(from_cache, plain);
      kept.matched(p);
      ml::fm_refine(p, limits, default_refinement(k), 8, &kept);
    }
  }
}

// A list handed on (a greedy pass's boundary list) is taken once, dropped when the partition
// moved behind the cache's back, and is FM's first pass: handing FM the list it would have
// shuffled itself gives the same partition as not handing it.
TEST(KeptGainCache, HandedSeedsAreTheNextFmRunsFirstPass) {
  const CsrGraph g = random_graph(800, 5000, 23);
  for (const BlockID k : {2u, 8u, 32u}) {
    const BlockLimits limits = uniform_limits(g, k, 0.03);
    ml::RefinementContext ctx = default_refinement(k);
    ctx.fm_parallel = false;
    ml::PartitionedGraph handed(g, k, round_robin(g.num_nodes(), k));
    ml::PartitionedGraph own(g, k, round_robin(g.num_nodes(), k));
    ml::KeptGainCache kept;
    const std::vector<NodeID> list = ml::fm_pass_seeds(handed, 9, 0, &kept.of(handed));
    ASSERT_FALSE(list.empty());
    kept.matched(handed);
    kept.hand_seeds(std::vector<NodeID>(list));
    EXPECT_EQ(kept.take_seeds(), list);
    EXPECT_TRUE(kept.take_seeds().empty());
    // Stale: a move the cache did not see drops the list with the cache.
    kept.hand_seeds(std::vector<NodeID>(list));
    NodeID u = 0;
    while (g.degree(u) == 0)
      ++u;
    const BlockID home = handed.block(u);
    handed.move(u, (home + 1) % k);
    kept.of(handed);
    EXPECT_TRUE(kept.take_seeds().empty());
    handed.move(u, home);
    kept.of(handed);
    kept.matched(handed);
    kept.hand_seeds(std::vector<NodeID>(list));
    const Weight gain = ml::fm_refine(handed, limits, ctx, 9, &kept);
    EXPECT_EQ(gain, ml::fm_refine(own, limits, ctx, 9));
    EXPECT_TRUE(std::equal(handed.blocks().begin(), handed.blocks().end(), own.blocks().begin()));
    EXPECT_EQ(plain_cut(g, handed.blocks()), plain_cut(g, own.blocks()));
  }
}

TEST(KeptGainCache, SupportsAsTheGraphSays) {
  // Unweighted, weighted, and weighted beyond the cache's 32-bit entries (2^31 in all).
  const CsrGraph plain = random_graph(500, 2000, 4);
  const CsrGraph weighted = ml_test::weighted_power_law_graph();
  const auto offsets = plain.offsets();
  const auto adjacency = plain.adjacency();
  std::vector<Weight> heavy_weights(plain.num_directed_edges(), Weight{1} << 22);
  const CsrGraph heavy({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()},
                       std::move(heavy_weights));
  ASSERT_FALSE(ml::GainCache::supports(heavy));
  ml::KeptGainCache kept;
  for (int round = 0; round < 2; ++round) // the answer kept per graph, asked again
    for (const CsrGraph* g : {&plain, &weighted, &heavy, &weighted})
      EXPECT_EQ(kept.supports(*g), ml::GainCache::supports(*g));
}

TEST(KeptGainCache, PositiveEdgeWeightsAsTheWeightsSay) {
  // One weight at a time set to 0, -1, the most negative value or 2^62 among positive ones:
  // the pass that sums for supports() also tells the rebalancer whether every weight is positive.
  const CsrGraph plain = random_graph(300, 1200, 5);
  const auto offsets = plain.offsets();
  const auto adjacency = plain.adjacency();
  ml::KeptGainCache unit;
  EXPECT_TRUE(unit.positive_edge_weights(plain));
  for (const Weight odd :
       {Weight{0}, Weight{-1}, std::numeric_limits<Weight>::min(), Weight{1} << 62, Weight{3}})
    for (const std::size_t at :
         {std::size_t{0}, plain.num_directed_edges() / 2, plain.num_directed_edges() - 1}) {
      std::vector<Weight> weights(plain.num_directed_edges(), 2);
      weights[at] = odd;
      const CsrGraph g({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()},
                       std::move(weights));
      ml::KeptGainCache kept;
      EXPECT_EQ(kept.positive_edge_weights(g), odd > 0) << "weight " << odd << " at " << at;
      EXPECT_EQ(kept.supports(g), odd < (Weight{1} << 20)) << "weight " << odd << " at " << at;
    }
}

TEST(KeptGainCache, RefineLevelDeterministicAndBalanced) {
  const CsrGraph g = random_graph(2000, 16000, 9);
  for (const BlockID k : {8u, 32u}) {
    PartitionOptions o;
    o.k = k;
    const ml::MultilevelContext ctx = ml::create_context(o);
    const BlockLimits limits = uniform_limits(g, k, 0.03);
    std::vector<std::vector<BlockID>> results;
    for (int run = 0; run < 2; ++run) {
      ml::PartitionedGraph p(g, k, round_robin(g.num_nodes(), k));
      const Weight before = ml::edge_cut(g, p.blocks());
      ml::refine_level(p, limits, ctx, 21);
      EXPECT_TRUE(p.balanced(limits));
      EXPECT_LT(plain_cut(g, p.blocks()), before);
      results.emplace_back(p.blocks().begin(), p.blocks().end());
    }
    EXPECT_EQ(results[0], results[1]);
  }
}

} // namespace
} // namespace gnnpart
