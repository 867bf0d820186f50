// V-cycles of the graph partitioner: clustering restricted to communities never joins two of
// them (isolated vertices included); a V-cycle from a partition is balanced (checked
// independently), never worse than its start and deterministic; the strong preset, which runs
// V-cycles, keeps fixed vertices in their blocks.
#include <vector>

#include <gtest/gtest.h>

#include "core/options.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/coarsening/lp_clustering.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/multilevel.h"
#include "partition/partitioner.h"

namespace gnnpart {
namespace {

using ml_test::check_result;

PartitionOptions options_for(BlockID k, Preset preset = Preset::kDefault) {
  PartitionOptions o;
  o.k = k;
  o.epsilon = 0.03;
  o.preset = preset;
  return o;
}

TEST(VCycle, ClustersStayWithinCommunities) {
  // A power-law graph followed by as many isolated vertices: two-hop clustering would otherwise
  // group all isolated vertices into the same clusters, whatever their community.
  const CsrGraph connected = ml_test::power_law_graph(3000, 3, 5);
  const NodeID n = 2 * connected.num_nodes();
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID u = 0; u < connected.num_nodes(); ++u)
    for (const NodeID v : connected.neighbors(u))
      if (u < v)
        edges.emplace_back(u, v);
  const CsrGraph g = ml_test::graph_from_edges(n, edges);
  std::vector<BlockID> communities(n);
  Rng rng(17);
  for (NodeID u = 0; u < n; ++u)
    communities[u] = static_cast<BlockID>(rng.below(3));
  const std::vector<Weight> limit = {20};
  const std::vector<NodeID> clusters =
      ml::lp_clustering(g, limit, ml::CoarseningContext{}, 5, {}, communities);
  std::vector<BlockID> community_of(n, kInvalidBlockID);
  NodeID num_clusters = 0;
  for (NodeID u = 0; u < n; ++u) {
    BlockID& c = community_of[clusters[u]];
    if (c == kInvalidBlockID) {
      c = communities[u];
      ++num_clusters;
    }
    EXPECT_EQ(c, communities[u]) << "vertex " << u << " in cluster " << clusters[u];
  }
  EXPECT_LT(num_clusters, n * 3 / 4); // it still clusters
}

TEST(VCycle, NeverWorseThanItsStartAndDeterministic) {
  for (const CsrGraph& g : ml_test::refinement_test_graphs())
    for (BlockID k : {2u, 8u, 32u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      const PartitionOptions o = options_for(k, Preset::kFast);
      const Partition start = partition_graph_multilevel(g, o);
      const Weight start_cut = check_result(g, start, k, o.epsilon).cut;
      const ml::MultilevelContext ctx = ml::create_context(options_for(k));
      const BlockLimits limits = uniform_limits(g, k, o.epsilon);
      Partition cycled;
      cycled.k = k;
      cycled.blocks = ml::multilevel_partition(g, limits, o.epsilon, 0.5, ctx, 3, {}, start.blocks);
      EXPECT_LE(check_result(g, cycled, k, o.epsilon).cut, start_cut);
      EXPECT_EQ(cycled.blocks,
                ml::multilevel_partition(g, limits, o.epsilon, 0.5, ctx, 3, {}, start.blocks));
    }
}

TEST(VCycle, StrongPresetKeepsFixedVerticesAndIsDeterministic) {
  const CsrGraph g = ml_test::power_law_graph(3000, 3, 8);
  std::vector<BlockID> fixed(g.num_nodes(), kInvalidBlockID);
  for (NodeID u = 0; u < g.num_nodes(); u += 37)
    fixed[u] = u % 8;
  PartitionOptions o = options_for(8, Preset::kStrong);
  ASSERT_GT(ml::create_context(o).vcycles, 0);
  o.threads = 2;
  const Partition p = partition_graph_multilevel(g, o, fixed);
  check_result(g, p, 8, o.epsilon);
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    if (fixed[u] != kInvalidBlockID) {
      EXPECT_EQ(p.blocks[u], fixed[u]) << "fixed vertex " << u;
    }
  }
  EXPECT_EQ(p.blocks, partition_graph_multilevel(g, o, fixed).blocks);
}

} // namespace
} // namespace gnnpart
