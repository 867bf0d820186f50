// Deep multilevel (partition/multilevel/deep_multilevel.h): blocks split while uncoarsening in
// place of recursive bisection of the coarsest graph. Every result re-checked by check_result
// (balance, no empty block, cut recomputed), determinism per seed and thread count, and cuts
// near those of recursive bisection.
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/multilevel_partitioner.h"
#include "partition/partitioner.h"

namespace gnnpart {
namespace {

using ml_test::check_result;

PartitionOptions options(BlockID k, std::uint64_t seed, int threads = 1, double epsilon = 0.03) {
  return ml_test::preset_options(Preset::kFast, k, seed, threads, epsilon);
}

// The fast preset with deep multilevel from k = 3 on (deep = true) or never.
ml::MultilevelContext context(const PartitionOptions& o, bool deep) {
  ml::MultilevelContext ctx = ml::create_context(o);
  ctx.initial.deep_min_k = deep ? 3 : 0;
  return ctx;
}

TEST(DeepMultilevel, BalancedAndNoEmptyBlockOnMixedGraphs) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(30, 40));
  graphs.push_back(ml_test::random_graph(2500, 8000, 3));
  graphs.push_back(ml_test::power_law_graph(3000, 3, 5));
  graphs.push_back(ml_test::weighted_power_law_graph());
  graphs.push_back(ml_test::star_graph(700));
  for (std::size_t i = 0; i < graphs.size(); ++i)
    for (BlockID k : {3u, 8u, 31u, 64u, 128u})
      for (double eps : {0.03, 0.01}) {
        SCOPED_TRACE(testing::Message() << "graph " << i << " k " << k << " eps " << eps);
        const PartitionOptions o = options(k, 1, 1, eps);
        check_result(graphs[i], partition_graph_multilevel(graphs[i], o, context(o, true)), k, eps);
      }
}

TEST(DeepMultilevel, GraphSmallerThanTheContractionLimit) {
  // No coarse level at all: every split happens on the input.
  const CsrGraph g = ml_test::grid_graph(6, 7);
  for (BlockID k : {3u, 16u, 42u}) {
    SCOPED_TRACE(k);
    const PartitionOptions o = options(k, 2);
    check_result(g, partition_graph_multilevel(g, o, context(o, true)), k, 0.03);
  }
}

TEST(DeepMultilevel, SameSeedAndThreadsGiveTheSamePartition) {
  const CsrGraph g = ml_test::power_law_graph(4000, 4, 11);
  for (int threads : {1, 2})
    for (BlockID k : {8u, 64u}) {
      SCOPED_TRACE(testing::Message() << "threads " << threads << " k " << k);
      const PartitionOptions o = options(k, 7, threads);
      const Partition a = partition_graph_multilevel(g, o, context(o, true));
      const Partition b = partition_graph_multilevel(g, o, context(o, true));
      check_result(g, a, k, 0.03);
      EXPECT_EQ(a.blocks, b.blocks);
    }
}

TEST(DeepMultilevel, CutsNearRecursiveBisections) {
  // A 64 x 64 grid into 16 blocks: 16 x 16 squares cut 384 edges, a random assignment about
  // 7560 of the 8064. Summed over three seeds, deep multilevel stays within 15% of recursive
  // bisection of the coarsest graph and within 1.5x the squares (it cut 1.37x them when
  // written).
  const CsrGraph g = ml_test::grid_graph(64, 64);
  Weight deep = 0, recursive = 0;
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    const PartitionOptions o = options(16, seed);
    deep += check_result(g, partition_graph_multilevel(g, o, context(o, true)), 16, 0.03).cut;
    recursive += check_result(g, partition_graph_multilevel(g, o, context(o, false)), 16, 0.03).cut;
  }
  EXPECT_LE(deep, recursive * 115 / 100);
  EXPECT_LE(deep, 3 * 384 * 3 / 2);
}

} // namespace
} // namespace gnnpart
