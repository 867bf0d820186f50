// Block-group FM (group_fm_refiner.h): from a balanced start it keeps every limit (checked
// independently), never raises the cut, reports its gain exactly, leaves the gain cache equal to
// one built afresh, gives the same partition on repeated runs and whatever the number of
// threads that run its groups (they depend on its `threads` argument only), and keeps fixed
// vertices in place; fm_refine runs it only with fm_block_groups, 2 threads or more below
// fm_parallel_min_threads and k >= 4; the default preset gives the same valid partition on
// repeated runs with 2 and 3 threads.
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "core/options.h"
#include "core/random.h"
#include "default_preset_determinism.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_refiner.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/group_fm_refiner.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"
#include "partition/partitioner.h"

namespace gnnpart {
namespace {

using ml_test::as_partition;
using ml_test::check_result;
using ml_test::plain_cut;
using ml_test::round_robin;

// Vertex u in block u * k / n: contiguous id ranges, regions on the grid (few cut edges between
// two ranges of blocks, as after recursive bisection).
std::vector<BlockID> ranges(NodeID n, BlockID k) {
  std::vector<BlockID> blocks(n);
  for (NodeID u = 0; u < n; ++u)
    blocks[u] = static_cast<BlockID>(static_cast<std::uint64_t>(u) * k / n);
  return blocks;
}

struct Refined {
  std::vector<BlockID> blocks;
  Weight gain = 0;
};

// One pass with `groups_for` threads' groups, run in an arena of `arena` threads. With a share
// of 1 the first phase has first_group_count groups whatever the seeds' best moves; below, the
// pass picks its groups as fm_refine's do (fewer, or two split elsewhere, or none).
Refined refine(const CsrGraph& g, BlockID k, double epsilon, std::vector<BlockID> start,
               int groups_for, int arena, std::span<const BlockID> fixed = {}, double share = 1.0) {
  const BlockLimits limits = uniform_limits(g, k, epsilon);
  ml::PartitionedGraph p(g, k, std::move(start));
  p.fix(fixed);
  ml::GainCache cache(g, p.blocks(), k);
  ml::RefinementContext ctx;
  ctx.fm_seeds = 8;
  const std::vector<NodeID> boundary = ml::fm_pass_seeds(p, 17, 0, &cache);
  std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  Refined out;
  tbb::task_arena(arena).execute([&] {
    out.gain = ml::group_fm_pass(p, limits, ctx, cache, boundary, locked, groups_for, share);
  });
  out.blocks.assign(p.blocks().begin(), p.blocks().end());
  // The cache it kept current equals one built from the result.
  const ml::GainCache fresh(g, p.blocks(), k);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (BlockID b = 0; b < k; ++b)
      if (cache.conn(u, b) != fresh.conn(u, b)) {
        ADD_FAILURE() << "gain cache of vertex " << u << " block " << b;
        return out;
      }
  return out;
}

TEST(GroupFm, GroupCounts) {
  EXPECT_EQ(ml::first_group_count(2, 2), 1);
  EXPECT_EQ(ml::first_group_count(3, 2), 1);
  EXPECT_EQ(ml::first_group_count(4, 2), 2);
  EXPECT_EQ(ml::first_group_count(8, 2), 4);
  EXPECT_EQ(ml::first_group_count(128, 2), 8);
  EXPECT_EQ(ml::first_group_count(128, 3), 16);
  EXPECT_EQ(ml::first_group_count(12, 3), 4);
  // Ranges of consecutive ids, as even as k allows.
  const ml::GroupStarts starts = ml::aligned_starts(10, 4);
  ASSERT_EQ(starts.size(), 5u);
  EXPECT_EQ(starts.front(), 0u);
  EXPECT_EQ(starts.back(), 10u);
  std::vector<int> sizes;
  for (std::size_t g = 0; g + 1 < starts.size(); ++g) {
    ASSERT_GE(starts[g + 1], starts[g]);
    sizes.push_back(static_cast<int>(starts[g + 1] - starts[g]));
  }
  EXPECT_EQ(sizes, (std::vector<int>{3, 2, 3, 2}));
}

TEST(GroupFm, BalancedExactAndNeverWorse) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {4u, 8u, 32u})
      for (double epsilon : {0.0, 0.03})
        for (bool local : {false, true}) {
          SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k << " eps "
                                          << epsilon << " ranges " << local);
          const std::vector<BlockID> start =
              local ? ranges(g.num_nodes(), k) : round_robin(g.num_nodes(), k);
          const Weight before = plain_cut(g, start);
          const Refined r = refine(g, k, epsilon, start, 2, 2);
          check_result(g, as_partition(r.blocks, k), k, epsilon);
          const Weight after = plain_cut(g, r.blocks);
          EXPECT_EQ(r.gain, before - after);
          EXPECT_GE(r.gain, 0);
          if (epsilon > 0 && !local) { // round robin leaves much to gain
            EXPECT_GT(r.gain, 0);
          }
        }
}

TEST(GroupFm, SameResultForRepeatedRunsAndAnyArena) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {8u, 32u})
      for (int groups_for : {2, 3}) {
        SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
        const std::vector<BlockID> start = ranges(g.num_nodes(), k);
        const Refined one = refine(g, k, 0.03, start, groups_for, 1);
        for (int arena : {2, 4})
          for (int run = 0; run < 3; ++run) {
            const Refined r = refine(g, k, 0.03, start, groups_for, arena);
            EXPECT_EQ(r.blocks, one.blocks) << arena << " threads, run " << run;
            EXPECT_EQ(r.gain, one.gain);
          }
      }
}

// A 64 x 64 grid whose upper half also has diagonal edges: in strips of rows (ranges of ids),
// the upper half's blocks hold about two thirds of the boundary's work, so two groups split
// above the middle balance a pass better than the halves.
CsrGraph half_dense_grid() {
  constexpr NodeID kSide = 64;
  std::vector<std::pair<NodeID, NodeID>> edges = ml_test::grid_edges(kSide, kSide);
  for (NodeID r = kSide / 2; r + 1 < kSide; ++r)
    for (NodeID c = 0; c + 1 < kSide; ++c) {
      edges.emplace_back(r * kSide + c, (r + 1) * kSide + c + 1);
      edges.emplace_back(r * kSide + c + 1, (r + 1) * kSide + c);
    }
  return ml_test::graph_from_edges(kSide * kSide, edges);
}

// The pass's first groups on strips of rows: the halves on the plain grid; on the half-dense
// one, whose upper blocks weigh more, two groups split above the middle (the halves would leave
// about two thirds of the work to one thread).
TEST(GroupFm, UnevenHalvesSplitElsewhere) {
  const BlockID k = 8;
  auto first_groups = [&](const CsrGraph& g) {
    ml::PartitionedGraph p(g, k, ranges(g.num_nodes(), k));
    const ml::GainCache cache(g, p.blocks(), k);
    const std::vector<NodeID> boundary = ml::fm_pass_seeds(p, 17, 0, &cache);
    return ml::first_phase_groups(p, cache, boundary, 2, ml::kMaxLeavingShare);
  };
  EXPECT_EQ(first_groups(ml_test::grid_graph(64, 64)), (ml::GroupStarts{0, 4, 8}));
  const ml::GroupStarts split = first_groups(half_dense_grid());
  ASSERT_EQ(split.size(), 3u);
  EXPECT_GT(split[1], k / 2);
  EXPECT_LT(split[1], k);
}

// With fm_refine's share the pass picks its groups from the seeds (aligned ranges, fewer of
// them, two groups split elsewhere, or none): still exact, never worse, the same in any arena.
TEST(GroupFm, ChosenGroupsAreExactAndDeterministic) {
  std::vector<CsrGraph> graphs = ml_test::refinement_test_graphs();
  graphs.push_back(half_dense_grid());
  for (const CsrGraph& g : graphs)
    for (BlockID k : {8u, 32u, 64u})
      for (bool local : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << "n " << g.num_nodes() << " k " << k << " ranges " << local);
        const std::vector<BlockID> start =
            local ? ranges(g.num_nodes(), k) : round_robin(g.num_nodes(), k);
        const Refined one = refine(g, k, 0.03, start, 2, 1, {}, ml::kMaxLeavingShare);
        check_result(g, as_partition(one.blocks, k), k, 0.03);
        EXPECT_EQ(one.gain, plain_cut(g, start) - plain_cut(g, one.blocks));
        EXPECT_GE(one.gain, 0);
        const Refined two = refine(g, k, 0.03, start, 2, 2, {}, ml::kMaxLeavingShare);
        EXPECT_EQ(two.blocks, one.blocks);
        EXPECT_EQ(two.gain, one.gain);
      }
}

TEST(GroupFm, WeightedGraphAndFixedVertices) {
  const CsrGraph g = ml_test::weighted_power_law_graph();
  const BlockID k = 8;
  const std::vector<BlockID> start = round_robin(g.num_nodes(), k);
  const std::vector<BlockID> fixed = ml_test::fix_every(start, 10);
  // Round robin with vertex weights of 1 to 5 is balanced only within a wide bound.
  const Refined r = refine(g, k, 0.5, start, 2, 2, fixed);
  ml_test::expect_fixed_refinement(g, k, 0.5, start, 10, r.blocks, r.gain);
  EXPECT_EQ(refine(g, k, 0.5, start, 2, 1, fixed).blocks, r.blocks);
}

// fm_refine: block groups with 2 or 3 threads and k >= 4 when the context asks for them and the
// block ids have locality (strips of a grid, numbered in order); sequential FM's result with 1
// thread, with k = 2, without fm_block_groups, or when most boundary vertices' best moves leave
// their group (a power-law graph whose blocks are ranges of random ids); parallel FM's from
// fm_parallel_min_threads (4) threads on.
TEST(GroupFm, FmRefineDispatches) {
  const CsrGraph grid = ml_test::grid_graph(64, 64);
  const CsrGraph power_law = ml_test::power_law_graph(3000, 3, 4);
  auto run = [&](const CsrGraph& g, BlockID k, int threads, bool groups) {
    const BlockLimits limits = uniform_limits(g, k, 0.03);
    ml::RefinementContext ctx;
    ctx.fm_parallel = true; // from fm_parallel_min_threads (4) on
    ctx.fm_block_groups = groups;
    ml::PartitionedGraph p(g, k, ranges(g.num_nodes(), k));
    tbb::task_arena(threads).execute([&] { ml::fm_refine(p, limits, ctx, 17); });
    return std::vector<BlockID>(p.blocks().begin(), p.blocks().end());
  };
  const std::vector<BlockID> sequential = run(grid, 32, 1, false);
  EXPECT_EQ(run(grid, 32, 1, true), sequential);
  EXPECT_EQ(run(grid, 32, 2, false), sequential);
  EXPECT_NE(run(grid, 32, 2, true), sequential);
  EXPECT_NE(run(grid, 32, 3, true), sequential);
  EXPECT_EQ(run(grid, 2, 2, true), run(grid, 2, 1, false));
  EXPECT_EQ(run(grid, 32, 4, true), run(grid, 32, 4, false)); // parallel FM
  EXPECT_EQ(run(power_law, 32, 2, true), run(power_law, 32, 1, false));
}

// The default preset (block groups at 2 and 3 threads): repeated runs give the same valid
// partition.
TEST(GroupFm, DefaultPresetIsDeterministic) {
  ml_test::expect_default_preset_deterministic({2, 3});
}

} // namespace
} // namespace gnnpart
