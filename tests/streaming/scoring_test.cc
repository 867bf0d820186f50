#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/random.h"
#include "streaming/block_loads.h"
#include "streaming/replica_sets.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

TEST(Scoring, FennelAlphaMatchesPaper) {
  // alpha = sqrt(k) * m / n^1.5 for gamma = 1.5.
  EXPECT_NEAR(fennel_alpha(10000, 50000, 16), 4.0 * 50000 / 1e6, 1e-12);
  EXPECT_NEAR(fennel_alpha(100, 1000, 4, 2.0), 1000 * 4.0 / 1e4, 1e-12);
  EXPECT_EQ(fennel_alpha(0, 10, 2), 0.0);
}

TEST(Scoring, FennelPenaltyIsMarginalCost) {
  const double alpha = 0.3;
  EXPECT_NEAR(fennel_penalty(16, alpha), alpha * 1.5 * 4.0, 1e-12);
  EXPECT_NEAR(fennel_penalty_15(16, alpha), fennel_penalty(16, alpha), 1e-12);
  EXPECT_NEAR(fennel_score(5, 16, alpha), 5 - alpha * 6.0, 1e-12);
  // A heavier block scores lower at the same neighbour count.
  EXPECT_GT(fennel_score(3, 10, alpha), fennel_score(3, 11, alpha));
}

TEST(Scoring, LdgScore) {
  EXPECT_DOUBLE_EQ(ldg_score(4, 25, 100), 3.0);
  EXPECT_DOUBLE_EQ(ldg_score(4, 100, 100), 0.0);
  EXPECT_DOUBLE_EQ(ldg_score(0, 0, 100), 0.0);
}

TEST(Scoring, NetStates) {
  EXPECT_EQ(net_state_after(kNetUnassigned, 3), 3u);
  EXPECT_EQ(net_state_after(3, 3), 3u);
  EXPECT_EQ(net_state_after(3, 4), kNetCut);
  EXPECT_EQ(net_state_after(kNetCut, 4), kNetCut);
  EXPECT_EQ(net_connectivity_increase(kNetUnassigned, 2), 0.0);
  EXPECT_EQ(net_connectivity_increase(2, 2), 0.0);
  EXPECT_EQ(net_connectivity_increase(1, 2), 1.0);
  EXPECT_EQ(net_connectivity_increase(kNetCut, 2), 0.0);
}

TEST(Scoring, MinibatchNetWeight) {
  EXPECT_EQ(minibatch_net_weight(0, 10, 100), 0.0);
  EXPECT_NEAR(minibatch_net_weight(1, 10, 100), 0.1, 1e-12);
  EXPECT_NEAR(minibatch_net_weight(2, 10, 100), 1 - 0.81, 1e-12);
  EXPECT_NEAR(minibatch_net_weight(3, 200, 100), 1.0, 1e-12); // every batch holds all
  EXPECT_LT(minibatch_net_weight(1, 10, 100), minibatch_net_weight(5, 10, 100));
}

TEST(Scoring, HdrfTerms) {
  // Neither endpoint present: no replication credit.
  EXPECT_EQ(hdrf_replication(false, false, 3, 5), 0.0);
  // theta(u) = 3/8: g(u) = 1 + 5/8.
  EXPECT_NEAR(hdrf_replication(true, false, 3, 5), 1.625, 1e-12);
  EXPECT_NEAR(hdrf_replication(false, true, 3, 5), 1.375, 1e-12);
  EXPECT_NEAR(hdrf_replication(true, true, 3, 5), 3.0, 1e-12);
  // The low-degree endpoint's block is preferred (high-degree vertices get replicated).
  EXPECT_GT(hdrf_replication(true, false, 1, 100), hdrf_replication(false, true, 1, 100));
  EXPECT_NEAR(hdrf_balance(10, 10, 4, 1.1), 0.0, 1e-12);
  EXPECT_NEAR(hdrf_balance(4, 10, 4, 1.1), 1.1 * 6 / 7, 1e-12);
}

TEST(BlockLoads, LightestTracksUpdates) {
  for (const BlockID k : {1u, 2u, 5u, 8u, 13u}) {
    BlockLoads loads(k);
    std::vector<Weight> reference(k, 0);
    Rng rng(k);
    for (int step = 0; step < 500; ++step) {
      const BlockID b = static_cast<BlockID>(rng.below(k));
      const Weight delta =
          (reference[b] > 0 && rng.coin()) ? -1 : 1 + static_cast<Weight>(rng.below(3));
      loads.add(b, delta);
      reference[b] += delta;
      const auto best = std::min_element(reference.begin(), reference.end());
      ASSERT_EQ(loads.lightest(), static_cast<BlockID>(best - reference.begin()));
      ASSERT_EQ(loads.min_weight(), *best);
    }
  }
}

TEST(ReplicaSets, InsertContainsUnion) {
  ReplicaSets sets(4, 20);
  EXPECT_TRUE(sets.insert(1, 3));
  EXPECT_FALSE(sets.insert(1, 3));
  EXPECT_TRUE(sets.insert(1, 17));
  EXPECT_TRUE(sets.insert(2, 9));
  EXPECT_TRUE(sets.contains(1, 17));
  EXPECT_FALSE(sets.contains(2, 17));
  std::vector<BlockID> seen;
  sets.for_each_union(1, 2, [&](BlockID b) { seen.push_back(b); });
  EXPECT_EQ(seen, (std::vector<BlockID>{3, 9, 17}));
  EXPECT_EQ(sets.count(1), 2u);
  sets.ensure(10);
  EXPECT_GE(sets.num_nodes(), 11u);
  EXPECT_FALSE(sets.contains(10, 3));
}

} // namespace
} // namespace gnnpart::streaming
