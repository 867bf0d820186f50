// The graph engine's refinement is the list ctx.refinement.algorithms, run in order by
// refine_level: an empty list leaves a level alone, a lone rebalancer restores the balance, and
// FM from the list lowers the cut of a poor start (checked by recomputing cut and block weights).
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart {
namespace {

// Blocks by vertex id ranges: [0, n/2) in block 0 except the first `extra` of block 1's.
std::vector<BlockID> halves(NodeID n, NodeID extra) {
  std::vector<BlockID> blocks(n, 1);
  for (NodeID u = 0; u < n / 2 + extra; ++u)
    blocks[u] = 0;
  return blocks;
}

Weight heaviest_block(const CsrGraph& g, std::span<const BlockID> blocks) {
  Weight w[2] = {0, 0};
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    w[blocks[u]] += g.vertex_weight(u);
  return std::max(w[0], w[1]);
}

ml::MultilevelContext context_with(std::vector<ml::Refiner> refiners) {
  PartitionOptions o;
  o.k = 2;
  ml::MultilevelContext ctx = ml::create_context(o);
  ctx.refinement.algorithms = std::move(refiners);
  return ctx;
}

TEST(RefinerList, EachEntryRunsItsRefiner) {
  const CsrGraph g = ml_test::grid_graph(40, 40);
  const NodeID n = g.num_nodes();
  const BlockLimits limits = uniform_limits(g, 2, 0.03);
  const std::vector<BlockID> start = halves(n, n / 10); // block 0 overloaded by 10%

  ml::PartitionedGraph untouched(g, 2, start);
  ml::refine_level(untouched, limits, context_with({}), 1);
  EXPECT_EQ(std::vector<BlockID>(untouched.blocks().begin(), untouched.blocks().end()), start);

  ml::PartitionedGraph balanced(g, 2, start);
  ml::refine_level(balanced, limits, context_with({ml::Refiner::kRebalance}), 1);
  EXPECT_GT(heaviest_block(g, start), limits.max(0, 0));
  EXPECT_LE(heaviest_block(g, balanced.blocks()), limits.max(0, 0));

  // A balanced but poor start: vertex u in block u mod 2.
  std::vector<BlockID> alternating(n);
  for (NodeID u = 0; u < n; ++u)
    alternating[u] = u % 2;
  ml::PartitionedGraph refined(g, 2, alternating);
  const auto list = {ml::Refiner::kRebalance, ml::Refiner::kFm, ml::Refiner::kRebalance};
  ml::refine_level(refined, limits, context_with(list), 1);
  EXPECT_LE(heaviest_block(g, refined.blocks()), limits.max(0, 0));
  EXPECT_LT(ml::edge_cut(g, refined.blocks()), ml::edge_cut(g, alternating));
}

TEST(RefinerList, PresetsNameTheirRefiners) {
  using enum ml::Refiner;
  PartitionOptions o;
  o.preset = Preset::kFast;
  EXPECT_EQ(ml::create_context(o).refinement.algorithms,
            (std::vector<ml::Refiner>{kRebalance, kFm, kRebalance}));
  o.preset = Preset::kDefault;
  EXPECT_EQ(ml::create_context(o).refinement.algorithms,
            (std::vector<ml::Refiner>{kRebalance, kGreedy, kFm, kGreedy, kRebalance, kRelaxedFm}));
}

} // namespace
} // namespace gnnpart
