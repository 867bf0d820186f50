// The hypergraph engine's parallel FM (parallel_fm_refiner.h): deterministic at 2 and 4 threads,
// within the block limits, km1 not worse than the start and equal to an independent
// recomputation, the gain cache still exact afterwards; and whole runs that take it (8 threads).
// The same checks for sequential FM with and without active seeds.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/block_limits.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/context.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/parallel_fm_refiner.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

struct FmResult {
  std::vector<BlockID> blocks;
  Weight gain = 0;
};

// A random hypergraph (nets of 2-6 pins, every tenth up to 40, weights 1-3), weighted
// vertices, and a random start within the limits.
struct Instance {
  Hypergraph hg;
  std::vector<BlockID> start;
  std::vector<Weight> max_weights;
};

Instance make_instance(NodeID n, int nets, BlockID k, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> net_weights;
  for (int e = 0; e < nets; ++e) {
    const int size = 2 + static_cast<int>(rng.below(e % 10 == 0 ? 39 : 5));
    for (int i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    offsets.push_back(pins.size());
    net_weights.push_back(1 + static_cast<Weight>(rng.below(3)));
  }
  std::vector<Weight> vertex_weights(n);
  Weight total = 0;
  for (Weight& w : vertex_weights)
    total += w = 1 + static_cast<Weight>(rng.below(2));
  Instance inst{Hypergraph(n, offsets, pins, net_weights, 1, vertex_weights), {}, {}};
  const Weight limit = (total + k - 1) / k * 105 / 100;
  inst.max_weights.assign(k, limit);
  // Round robin over a shuffled order: every block below its limit.
  std::vector<NodeID> order(n);
  for (NodeID u = 0; u < n; ++u)
    order[u] = u;
  std::shuffle(order.begin(), order.end(), rng);
  inst.start.resize(n);
  std::vector<Weight> weight(k, 0);
  BlockID b = 0;
  for (NodeID u : order) {
    while (weight[b] + inst.hg.vertex_weight(u) > limit)
      b = (b + 1) % k;
    inst.start[u] = b;
    weight[b] += inst.hg.vertex_weight(u);
    b = (b + 1) % k;
  }
  return inst;
}

FmResult run_parallel_fm(const Instance& inst, BlockID k, int threads, std::uint64_t seed) {
  HgContext ctx;
  ctx.k = k;
  // Small batches: the searches of one batch meet often on these small instances.
  ctx.refinement.fm_min_batches = 4;
  PartitionedHypergraph phg(inst.hg, k);
  phg.assign(inst.start);
  FmResult r;
  run_with_threads(threads, [&] {
    Km1GainCache cache;
    EXPECT_TRUE(cache.rebuild(phg));
    r.gain = parallel_fm_refine(phg, ctx, inst.max_weights, seed, cache);
    // The cache still describes the partition exactly.
    GainComputer gc(k);
    for (NodeID v = 0; v < phg.num_nodes(); ++v)
      for (BlockID t = 0; t < k; ++t)
        if (t != phg.block(v)) {
          ASSERT_EQ(cache.gain(v, t), gc.gain(phg, v, t, Objective::kKm1))
              << "vertex " << v << " block " << t;
        }
  });
  r.blocks.assign(phg.blocks().begin(), phg.blocks().end());
  return r;
}

Weight brute_km1(const Hypergraph& hg, const std::vector<BlockID>& blocks, BlockID k) {
  Partition p;
  p.k = k;
  p.blocks = blocks;
  return testing::brute_force_metrics(hg, p).km1;
}

class ParallelFmTest : public ::testing::TestWithParam<BlockID> {};

TEST_P(ParallelFmTest, DeterministicBalancedAndNotWorse) {
  const BlockID k = GetParam();
  for (std::uint64_t seed : {1, 2, 3}) {
    const Instance inst = make_instance(600, 900, k, seed);
    const Weight start_km1 = brute_km1(inst.hg, inst.start, k);
    for (int threads : {2, 4}) {
      const FmResult a = run_parallel_fm(inst, k, threads, seed);
      const FmResult b = run_parallel_fm(inst, k, threads, seed);
      EXPECT_EQ(a.blocks, b.blocks) << "threads " << threads << " seed " << seed;
      EXPECT_EQ(a.gain, b.gain);
      const Weight km1 = brute_km1(inst.hg, a.blocks, k);
      EXPECT_EQ(start_km1 - km1, a.gain) << "threads " << threads << " seed " << seed;
      EXPECT_GT(a.gain, 0) << "a random start leaves gains to find";
      Partition p;
      p.k = k;
      p.blocks = a.blocks;
      const auto m = testing::brute_force_metrics(inst.hg, p);
      for (BlockID blk = 0; blk < k; ++blk)
        EXPECT_LE(m.block_weights[blk], inst.max_weights[blk]) << "block " << blk;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Blocks, ParallelFmTest, ::testing::Values(2u, 8u, 32u));

// Sequential FM (fm_refine below the parallel threshold), with rounds after the first seeded
// from the vertices the last round's kept moves changed (fm_active_seeds, the default; with and
// without the deciding round from every boundary vertex) and from every boundary vertex: the
// returned gain is the km1 decrease recomputed from scratch, blocks
// stay within their limits, the cache stays exact, and the same seed gives the same partition
// and the same work count.
TEST_P(ParallelFmTest, SequentialRoundsWithAndWithoutActiveSeeds) {
  const BlockID k = GetParam();
  for (const auto& [active, deciding] : {std::pair{true, true}, {false, true}, {true, false}}) {
    for (std::uint64_t seed : {1, 2}) {
      SCOPED_TRACE(::testing::Message()
                   << "active " << active << " deciding round " << deciding << " seed " << seed);
      const Instance inst = make_instance(600, 900, k, seed);
      const Weight start_km1 = brute_km1(inst.hg, inst.start, k);
      HgContext ctx;
      ctx.k = k;
      ctx.refinement.fm_active_seeds = active;
      ctx.refinement.fm_deciding_round = deciding;
      FmResult runs[2];
      std::uint64_t work[2] = {0, 0};
      for (int i = 0; i < 2; ++i) {
        PartitionedHypergraph phg(inst.hg, k);
        phg.assign(inst.start);
        Km1GainCache cache;
        runs[i].gain = fm_refine(phg, ctx, inst.max_weights, seed, cache);
        work[i] = cache.work();
        GainComputer gc(k);
        for (NodeID v = 0; v < phg.num_nodes(); ++v)
          for (BlockID t = 0; t < k; ++t)
            if (t != phg.block(v)) {
              ASSERT_EQ(cache.gain(v, t), gc.gain(phg, v, t, Objective::kKm1));
            }
        runs[i].blocks.assign(phg.blocks().begin(), phg.blocks().end());
      }
      EXPECT_EQ(runs[0].blocks, runs[1].blocks);
      EXPECT_EQ(work[0], work[1]);
      EXPECT_GT(work[0], 0u);
      EXPECT_GT(runs[0].gain, 0) << "a random start leaves gains to find";
      EXPECT_EQ(start_km1 - brute_km1(inst.hg, runs[0].blocks, k), runs[0].gain);
      Partition p{k, runs[0].blocks};
      const auto m = testing::brute_force_metrics(inst.hg, p);
      for (BlockID blk = 0; blk < k; ++blk)
        EXPECT_LE(m.block_weights[blk], inst.max_weights[blk]) << "block " << blk;
    }
  }
}

// Whole multilevel runs at 8 threads with parallel FM switched on from 8 threads (it is off by
// default): balanced, km1 as recomputed, the same partition twice.
TEST(ParallelFm, MultilevelAtEightThreadsIsDeterministic) {
  const Instance inst = make_instance(2000, 3000, 8, 7);
  for (BlockID k : {2u, 8u, 32u}) {
    const PartitionOptions o = testing::options(k, 5, 8);
    HgContext ctx = make_context(o);
    ctx.refinement.fm_parallel_min_threads = 8;
    const BlockLimits limits = uniform_limits(inst.hg, k, o.epsilon);
    const auto run = [&] {
      return run_with_threads(8, [&] {
        Km1GainCache cache;
        return multilevel_partition(inst.hg, ctx, limits, ctx.seed, cache);
      });
    };
    const Partition a{k, run()};
    const Partition b{k, run()};
    EXPECT_EQ(a.blocks, b.blocks) << "k " << k;
    testing::check(inst.hg, a, o);
  }
}

} // namespace
} // namespace gnnpart::hg
