// Community detection on the star expansion (community_detection.h) and the coarsening it
// restricts: communities found where the structure is planted, deterministic, and never crossed
// by a cluster; partitions of a community-restricted run checked independently.
#include <gtest/gtest.h>

#include <set>

#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/coarsening.h"
#include "hypergraph/community_detection.h"
#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/multilevel.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

// `groups` groups of `size` vertices; inside a group every pair is a net, and consecutive groups
// share one net of two pins.
Hypergraph planted_groups(NodeID groups, NodeID size) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  auto net = [&](NodeID a, NodeID b) {
    pins.push_back(a);
    pins.push_back(b);
    offsets.push_back(pins.size());
  };
  for (NodeID g = 0; g < groups; ++g) {
    for (NodeID i = 0; i < size; ++i)
      for (NodeID j = i + 1; j < size; ++j)
        net(g * size + i, g * size + j);
    if (g + 1 < groups)
      net(g * size + size - 1, (g + 1) * size);
  }
  return Hypergraph(groups * size, std::move(offsets), std::move(pins));
}

// Random nets among nearby vertices (a ring), so that communities are local.
Hypergraph ring_hypergraph(NodeID n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (NodeID u = 0; u < n; ++u)
    for (int j = 0; j < 2; ++j) {
      const int size = 2 + static_cast<int>(rng.below(4));
      std::set<NodeID> net{u};
      for (int i = 1; i < size; ++i)
        net.insert((u + 1 + static_cast<NodeID>(rng.below(30))) % n);
      pins.insert(pins.end(), net.begin(), net.end());
      offsets.push_back(pins.size());
    }
  return Hypergraph(n, std::move(offsets), std::move(pins));
}

TEST(CommunityDetection, FindsPlantedGroups) {
  const NodeID groups = 6, size = 8;
  const Hypergraph hg = planted_groups(groups, size);
  BlockID count = 0;
  const std::vector<BlockID> c = detect_communities(hg, CommunityContext{}, 1, &count);
  ASSERT_EQ(c.size(), hg.num_nodes());
  EXPECT_EQ(count, groups);
  for (NodeID g = 0; g < groups; ++g)
    for (NodeID i = 0; i < size; ++i) {
      EXPECT_EQ(c[g * size + i], c[g * size]) << "vertex " << g * size + i;
      if (g > 0)
        EXPECT_NE(c[g * size], c[(g - 1) * size]);
    }
}

TEST(CommunityDetection, DeterministicAndCompact) {
  const Hypergraph hg = ring_hypergraph(3000, 2);
  BlockID count_a = 0, count_b = 0;
  const auto a = detect_communities(hg, CommunityContext{}, 7, &count_a);
  const auto b = run_with_threads(1, [&] { return detect_communities(hg, {}, 7, &count_b); });
  EXPECT_EQ(a, b);
  EXPECT_EQ(count_a, count_b);
  EXPECT_GT(count_a, 1u);
  EXPECT_LT(count_a, hg.num_nodes() / 10);
  std::vector<char> used(count_a, 0);
  for (BlockID x : a) {
    ASSERT_LT(x, count_a);
    used[x] = 1;
  }
  EXPECT_EQ(std::count(used.begin(), used.end(), 1), static_cast<long>(count_a));
}

TEST(CommunityDetection, EdgeCases) {
  BlockID count = 5;
  EXPECT_TRUE(detect_communities(Hypergraph(), {}, 0, &count).empty());
  EXPECT_EQ(count, 0u);
  // No net of two pins: every vertex alone.
  const Hypergraph singles(3, {0, 1, 2}, {0, 1});
  const auto c = detect_communities(singles, {}, 0, &count);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(std::set<BlockID>(c.begin(), c.end()).size(), 3u);
}

TEST(CommunityDetection, CoarseningNeverCrossesCommunities) {
  const Hypergraph hg = ring_hypergraph(4000, 3);
  BlockID count = 0;
  const auto communities = detect_communities(hg, {}, 1, &count);
  const HgContext ctx = make_context(testing::options(2));
  const BlockLimits limits = uniform_limits(hg, 2, 0.03);
  const HgHierarchy h = coarsen(hg, ctx, limits, 5, {}, communities);
  ASSERT_GE(h.coarsest(), 1u);
  // The community of each vertex of the coarsest level, from its first input vertex.
  std::vector<NodeID> to(hg.num_nodes());
  for (NodeID u = 0; u < hg.num_nodes(); ++u) {
    NodeID x = u;
    for (const auto& map : h.maps)
      x = map[x];
    to[u] = x;
  }
  std::vector<BlockID> of(h.level(h.coarsest()).num_nodes(), kInvalidBlockID);
  for (NodeID u = 0; u < hg.num_nodes(); ++u) {
    if (of[to[u]] == kInvalidBlockID)
      of[to[u]] = communities[u];
    EXPECT_EQ(of[to[u]], communities[u]) << "vertex " << u;
  }
}

TEST(CommunityDetection, RestrictedRunsGiveValidDeterministicPartitions) {
  const Hypergraph hg = ring_hypergraph(5000, 4);
  BlockID count = 0;
  const auto communities = detect_communities(hg, {}, 1, &count);
  for (BlockID k : {2u, 8u}) {
    SCOPED_TRACE(k);
    const PartitionOptions o = testing::options(k);
    const HgContext ctx = make_context(o);
    const BlockLimits limits = uniform_limits(hg, k, o.epsilon);
    auto run = [&](int threads) {
      return run_with_threads(threads, [&] {
        Km1GainCache cache;
        return multilevel_partition(hg, ctx, limits, 3, cache, communities);
      });
    };
    const Partition p{k, run(2)};
    testing::check(hg, p, o);
    EXPECT_EQ(p.blocks, run(1));
  }
}

} // namespace
} // namespace gnnpart::hg
