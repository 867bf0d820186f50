// Adaptive FM passes (RefinementContext::fm_min_pass_gain): the reported gain is the exact cut
// change, a threshold no pass can reach stops after the first pass, more passes never end above
// one from the same start, and the result is the same for the same seed. The strong preset's
// passes stop exactly after the first pass that gains less than its threshold.
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "core/block_limits.h"
#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/fm_refiner.h"

namespace gnnpart {
namespace {

using ml_test::round_robin;

struct Refined {
  Weight gain;
  Weight cut;
  std::vector<BlockID> blocks;
};

Refined refine(const CsrGraph& g, BlockID k, int passes, double min_gain,
               Preset preset = Preset::kDefault) {
  PartitionOptions o;
  o.k = k;
  o.preset = preset;
  ml::RefinementContext ctx = ml::create_context(o).refinement;
  ctx.fm_passes = passes;
  ctx.fm_min_pass_gain = min_gain;
  const BlockLimits limits = uniform_limits(g, k, 0.03);
  ml::PartitionedGraph p(g, k, round_robin(g.num_nodes(), k));
  const Weight gain = ml::fm_refine(p, limits, ctx, 7);
  EXPECT_TRUE(p.balanced(limits));
  return {gain, ml::edge_cut(g, p.blocks()), {p.blocks().begin(), p.blocks().end()}};
}

TEST(FmPasses, AdaptivePassesReportExactGainsAndStopOnTheThreshold) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u, 32u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      const Weight start = ml::edge_cut(g, round_robin(g.num_nodes(), k));
      const Refined one = refine(g, k, 1, 0);
      const Refined adaptive = refine(g, k, 8, 0.001);
      EXPECT_EQ(one.gain, start - one.cut);
      EXPECT_EQ(adaptive.gain, start - adaptive.cut);
      // Later passes only add gains to the first pass's (same seeds for pass 0).
      EXPECT_LE(adaptive.cut, one.cut);
      // No pass gains the whole cut it started from: one pass, the same as fm_passes = 1.
      EXPECT_EQ(refine(g, k, 8, 1.0).blocks, one.blocks);
      EXPECT_EQ(refine(g, k, 8, 0.001).blocks, adaptive.blocks);
    }
}

TEST(FmPasses, StrongPresetStopsAfterTheFirstSmallPass) {
  PartitionOptions o;
  o.preset = Preset::kStrong;
  const ml::RefinementContext strong = ml::create_context(o).refinement;
  ASSERT_GT(strong.fm_min_pass_gain, 0);
  ASSERT_GT(strong.fm_passes, 1);
  // One thread: sequential FM, whose pass j uses the same seeds however many passes run.
  tbb::task_arena one_thread(1);
  one_thread.execute([&] {
    for (const CsrGraph& g : ml_test::refinement_test_graphs())
      for (BlockID k : {2u, 8u, 32u}) {
        SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
        // Pass j's result is that of fm_passes = j (the same seeds per pass): the first pass
        // that gains less than the threshold (or the last allowed) is where the preset stops.
        Weight cut = ml::edge_cut(g, round_robin(g.num_nodes(), k));
        Refined expected;
        for (int j = 1; j <= strong.fm_passes; ++j) {
          expected = refine(g, k, j, 0, Preset::kStrong);
          const Weight gain = cut - expected.cut;
          if (static_cast<double>(gain) < strong.fm_min_pass_gain * static_cast<double>(cut))
            break;
          cut = expected.cut;
        }
        const Refined adaptive =
            refine(g, k, strong.fm_passes, strong.fm_min_pass_gain, Preset::kStrong);
        EXPECT_EQ(adaptive.blocks, expected.blocks);
      }
  });
}

} // namespace
} // namespace gnnpart
