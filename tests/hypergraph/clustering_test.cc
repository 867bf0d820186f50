#include <gtest/gtest.h>

#include <vector>

#include "core/hypergraph.h"
#include "hypergraph/clustering.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {
namespace {

// One sub-round: every vertex proposes against the all-singleton state, so the result does not
// depend on the seeded order.
CoarseningContext one_sub_round() {
  CoarseningContext ctx;
  ctx.sub_rounds = 1;
  return ctx;
}

// Nets {0, 2} of weight 10 and {0, 1} of weight 1; vertex 2 weighs 2, clusters at most 2.
Hypergraph heavy_net_too_heavy_pin() {
  return Hypergraph(3, {0, 2, 4}, {0, 2, 0, 1}, {10, 1}, 1, {1, 1, 2});
}

TEST(Clustering, BestRatedClusterThatFits) {
  const Hypergraph hg = heavy_net_too_heavy_pin();
  const std::vector<Weight> limit{2};
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    NodeID count = 0;
    const auto cluster = compute_clustering(hg, one_sub_round(), limit, 1, seed, &count);
    // Vertex 0 rates 2 at 10 and 1 at 1; 2 does not fit, so 0 and 1 join.
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(cluster[0], cluster[1]);
    EXPECT_NE(cluster[0], cluster[2]);
  }
}

TEST(Clustering, HeavierRatingWinsWithUnitWeights) {
  // Vertex 0 shares two 4-pin nets with 1, 2 and 3 (rating 2/3 each) and one 2-pin net with 4
  // (rating 1); 1, 2 and 3 rate each other higher than 0 through pairs of 2-pin nets.
  const Hypergraph hg(5, {0, 4, 8, 10, 12, 14, 16, 18},
                      {0, 1, 2, 3, 0, 1, 2, 3, 0, 4, 1, 2, 1, 2, 2, 3, 2, 3});
  const std::vector<Weight> limit{2};
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    NodeID count = 0;
    const auto cluster = compute_clustering(hg, one_sub_round(), limit, 1, seed, &count);
    // 4 proposes 0 and 0 proposes 4; whoever applies first takes the other.
    EXPECT_EQ(cluster[0], cluster[4]);
  }
}

// Net {0, 1} of weight 2 and net {0, 2} of weight 1; vertex 1 weighs 4, the others 1. Rated per
// unit of the joint cluster's weight, 0 prefers 2 (1 / 2 against 2 / 5), else 1 (2 against 1).
// One merge only (target 2 clusters): the first proposal in the seeded order is applied, so the
// two ratings differ exactly on the seeds where 0 comes first.
TEST(Clustering, RatingPerClusterWeightPrefersTheLighterCluster) {
  const Hypergraph hg(3, {0, 2, 4}, {0, 1, 0, 2}, {2, 1}, 1, {1, 4, 1});
  const std::vector<Weight> limit{5};
  CoarseningContext plain = one_sub_round();
  plain.rate_per_cluster_weight = false;
  CoarseningContext per_weight = one_sub_round();
  per_weight.rate_per_cluster_weight = true;
  int differ = 0;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    NodeID count = 0;
    const auto p = compute_clustering(hg, plain, limit, 2, seed, &count);
    const auto w = compute_clustering(hg, per_weight, limit, 2, seed, &count);
    if (p == w)
      continue;
    ++differ;
    EXPECT_EQ(p[0], p[1]); // 0 joined the heavier 1 without the weight
    EXPECT_EQ(w[0], w[2]); // and the lighter 2 with it
  }
  EXPECT_GT(differ, 0);
}

TEST(Clustering, CommunitiesRestrictTheRating) {
  // Nets {0, 1} of weight 10, {0, 2} of weight 1, {2, 3} of weight 5, unit vertex weights.
  const Hypergraph hg(4, {0, 2, 4, 6}, {0, 1, 0, 2, 2, 3}, {10, 1, 5});
  const std::vector<Weight> limit{2};
  const std::vector<BlockID> communities{0, 1, 0, 1};
  NodeID count = 0;
  const auto free = compute_clustering(hg, one_sub_round(), limit, 1, 3, &count);
  EXPECT_EQ(free[0], free[1]);
  EXPECT_EQ(free[2], free[3]);
  // Within the communities only net {0, 2} is rated.
  const auto kept = compute_clustering(hg, one_sub_round(), limit, 1, 3, &count, communities);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(kept[0], kept[2]);
  EXPECT_NE(kept[0], kept[1]);
}

// Vertices that no cluster can take (their weight plus the lightest vertex's is over the limit)
// are not rated; at the limit exactly they still join.
TEST(Clustering, VerticesThatFitNoClusterStayAloneAtTheLimitTheyJoin) {
  // A 2-pin net between each pair of consecutive vertices, every vertex weighing 2.
  const Hypergraph hg(4, {0, 2, 4, 6}, {0, 1, 1, 2, 2, 3}, {1, 1, 1}, 1, {2, 2, 2, 2});
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    NodeID count = 0;
    const std::vector<Weight> below{3};
    const auto alone = compute_clustering(hg, one_sub_round(), below, 1, seed, &count);
    EXPECT_EQ(count, 4u);
    for (NodeID u = 0; u < 4; ++u)
      EXPECT_EQ(alone[u], u);
    const std::vector<Weight> at{4};
    compute_clustering(hg, one_sub_round(), at, 1, seed, &count);
    EXPECT_LT(count, 4u);
  }
}

} // namespace
} // namespace gnnpart::hg
