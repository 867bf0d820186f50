// LevelMap: a coarsening level's vertex -> cluster map, 2 bytes an entry where the coarse level
// allows; the same ids and the same projection either way.
#include <gtest/gtest.h>

#include <vector>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "hypergraph/level_map.h"

namespace gnnpart::hg {
namespace {

std::vector<NodeID> random_map(std::size_t n, NodeID clusters, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<NodeID> map(n);
  for (auto& c : map)
    c = static_cast<NodeID>(rng.below(clusters));
  map[n - 1] = clusters - 1; // the largest id in use
  return map;
}

TEST(LevelMap, NarrowUpTo65536ClustersWideBeyond) {
  const std::size_t n = 200000;
  for (const NodeID clusters :
       {NodeID{3}, NodeID{65535}, NodeID{65536}, NodeID{65537}, NodeID{150000}}) {
    SCOPED_TRACE(::testing::Message() << clusters << " clusters");
    const std::vector<NodeID> map = random_map(n, clusters, clusters);
    const LevelMap level(map, clusters);
    EXPECT_EQ(level.is_narrow(), clusters <= 65536);
    ASSERT_EQ(level.size(), n);
    EXPECT_EQ(level.to_vector(), map);
    for (std::size_t u = 0; u < n; u += 997)
      EXPECT_EQ(level[u], map[u]);
  }
}

TEST(LevelMap, ProjectsAsTheFourByteMap) {
  const std::size_t n = 100000;
  for (const NodeID clusters : {NodeID{65536}, NodeID{70000}}) {
    const std::vector<NodeID> map = random_map(n, clusters, 5);
    std::vector<BlockID> coarse(clusters);
    Rng rng(11);
    for (auto& b : coarse)
      b = static_cast<BlockID>(rng.below(128));
    EXPECT_EQ(LevelMap(map, clusters).project(coarse), project_partition(map, coarse));
  }
}

TEST(LevelMap, EmptyMap) {
  const LevelMap level({}, 0);
  EXPECT_EQ(level.size(), 0u);
  EXPECT_TRUE(level.project({}).empty());
}

} // namespace
} // namespace gnnpart::hg
