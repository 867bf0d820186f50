// Greedy and BFS growing of the initial bisection may start from a pseudo-peripheral vertex
// (InitialContext::peripheral_sweeps, initial/bisection.cc): on a path whose ids are shuffled a
// region grown from its end is cut once, one grown from inside twice; graphs with several
// components and isolated vertices still give balanced sides; the default preset uses it.
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/initial/bisection.h"
#include "partition/multilevel/objectives.h"

namespace gnnpart::ml {
namespace {

// A path of n vertices whose ids are a seeded permutation of the positions.
CsrGraph shuffled_path(NodeID n, std::uint64_t seed) {
  std::vector<NodeID> id(n);
  std::iota(id.begin(), id.end(), NodeID{0});
  Rng rng(seed);
  std::shuffle(id.begin(), id.end(), rng);
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID i = 0; i + 1 < n; ++i)
    edges.emplace_back(id[i], id[i + 1]);
  return ml_test::graph_from_edges(n, edges);
}

// Growing alone (no FM): one greedy and one BFS try.
InitialContext growing_only(int sweeps) {
  InitialContext ctx;
  ctx.tries = 2;
  ctx.fm_passes = 0;
  ctx.peripheral_sweeps = sweeps;
  return ctx;
}

TEST(PeripheralGrowing, PathIsCutOnceFromItsEnd) {
  const CsrGraph g = shuffled_path(101, 7);
  const BlockLimits limits = uniform_limits(g, 2, 0.03);
  int cut_twice_from_random_starts = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<BlockID> peripheral =
        initial_bisection(g, limits, 0.5, growing_only(1), seed);
    EXPECT_EQ(edge_cut(g, peripheral), 1) << "seed " << seed;
    const std::vector<BlockID> random = initial_bisection(g, limits, 0.5, growing_only(0), seed);
    EXPECT_GE(edge_cut(g, random), 1);
    cut_twice_from_random_starts += edge_cut(g, random) > 1 ? 1 : 0;
  }
  // A random start inside the path's middle half grows both ways until it is half the path.
  EXPECT_GT(cut_twice_from_random_starts, 0);
}

TEST(PeripheralGrowing, ComponentsAndIsolatedVerticesStayBalanced) {
  // 12 paths of 10 vertices, then 40 isolated vertices.
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID p = 0; p < 12; ++p)
    for (NodeID i = 0; i + 1 < 10; ++i)
      edges.emplace_back(10 * p + i, 10 * p + i + 1);
  const CsrGraph g = ml_test::graph_from_edges(160, edges);
  const BlockLimits limits = uniform_limits(g, 2, 0.03);
  for (std::uint64_t seed = 0; seed < 10; ++seed)
    for (const int sweeps : {1, 2}) {
      InitialContext ctx;
      ctx.peripheral_sweeps = sweeps;
      const std::vector<BlockID> sides = initial_bisection(g, limits, 0.5, ctx, seed);
      Weight side0 = 0;
      for (const BlockID s : sides)
        side0 += s == 0 ? 1 : 0;
      EXPECT_LE(side0, limits.max(0, 0)) << "seed " << seed;
      EXPECT_LE(160 - side0, limits.max(1, 0)) << "seed " << seed;
      // Every path fits on one side: at most one path needs to be split.
      EXPECT_LE(edge_cut(g, sides), 1) << "seed " << seed;
    }
}

TEST(PeripheralGrowing, DefaultPresetStartsAtTheRim) {
  PartitionOptions o;
  o.preset = Preset::kDefault;
  EXPECT_EQ(create_context(o).initial.peripheral_sweeps, 1);
  o.preset = Preset::kFast;
  EXPECT_EQ(create_context(o).initial.peripheral_sweeps, 0);
}

} // namespace
} // namespace gnnpart::ml
