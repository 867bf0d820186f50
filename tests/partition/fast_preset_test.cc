// The fast preset of the multilevel engine end to end: every result re-checked by check_result
// (balance, no empty block, cut recomputed with plain loops), determinism per seed and thread
// count, and a cut far from that of a random assignment.
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/partitioner.h"

namespace gnnpart {
namespace {

using ml_test::check_result;

PartitionOptions fast_options(BlockID k, std::uint64_t seed, int threads = 1,
                              double epsilon = 0.03) {
  return ml_test::preset_options(Preset::kFast, k, seed, threads, epsilon);
}

TEST(FastPreset, BalancedAndNoEmptyBlockOnMixedGraphs) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(30, 40));
  graphs.push_back(ml_test::random_graph(2500, 8000, 3));
  graphs.push_back(ml_test::power_law_graph(3000, 3, 5));
  graphs.push_back(ml_test::star_graph(700));
  for (std::size_t i = 0; i < graphs.size(); ++i)
    for (BlockID k : {2u, 3u, 8u, 31u, 64u})
      for (double eps : {0.03, 0.01}) {
        SCOPED_TRACE(testing::Message() << "graph " << i << " k " << k << " eps " << eps);
        const Partition p = partition_graph_multilevel(graphs[i], fast_options(k, 1, 1, eps));
        check_result(graphs[i], p, k, eps);
      }
}

TEST(FastPreset, SameSeedAndThreadsGiveTheSamePartition) {
  const CsrGraph g = ml_test::power_law_graph(4000, 4, 11);
  for (int threads : {1, 2})
    for (BlockID k : {2u, 8u, 32u}) {
      SCOPED_TRACE(testing::Message() << "threads " << threads << " k " << k);
      const Partition a = partition_graph_multilevel(g, fast_options(k, 7, threads));
      const Partition b = partition_graph_multilevel(g, fast_options(k, 7, threads));
      check_result(g, a, k, 0.03);
      EXPECT_EQ(a.blocks, b.blocks);
    }
}

TEST(FastPreset, GridCutsAreNearTheGeometricOptimum) {
  // 40 x 40 grid: a straight bisection cuts 40 edges, four quadrants 80; a random assignment
  // cuts about half (k = 2) or three quarters (k = 4) of the 3120 edges.
  const CsrGraph g = ml_test::grid_graph(40, 40);
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    SCOPED_TRACE(seed);
    EXPECT_LE(check_result(g, partition_graph_multilevel(g, fast_options(2, seed)), 2, 0.03).cut,
              60);
    EXPECT_LE(check_result(g, partition_graph_multilevel(g, fast_options(4, seed)), 4, 0.03).cut,
              130);
  }
}

TEST(FastPreset, StaysCloseToTheDefaultPreset) {
  // Planted blocks: 16 dense groups of 150 vertices with few edges between them. Both presets
  // should find (nearly) the planted cut; fast may lose a little, not a factor.
  const NodeID groups = 16, size = 150;
  std::vector<std::pair<NodeID, NodeID>> edges;
  Rng rng(9);
  for (NodeID gi = 0; gi < groups; ++gi)
    for (int i = 0; i < 900; ++i)
      edges.emplace_back(gi * size + static_cast<NodeID>(rng.below(size)),
                         gi * size + static_cast<NodeID>(rng.below(size)));
  for (int i = 0; i < 200; ++i)
    edges.emplace_back(static_cast<NodeID>(rng.below(groups * size)),
                       static_cast<NodeID>(rng.below(groups * size)));
  const CsrGraph g = ml_test::graph_from_edges(groups * size, edges);
  PartitionOptions def = fast_options(16, 3);
  def.preset = Preset::kDefault;
  const Weight default_cut = check_result(g, partition_graph_multilevel(g, def), 16, 0.03).cut;
  const Weight fast_cut =
      check_result(g, partition_graph_multilevel(g, fast_options(16, 3)), 16, 0.03).cut;
  EXPECT_LE(default_cut, 260);
  EXPECT_LE(fast_cut, default_cut * 13 / 10 + 10);
}

} // namespace
} // namespace gnnpart
