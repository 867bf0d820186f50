#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/multilevel_steps.h"

namespace gnnpart {
namespace {

TEST(MultilevelSteps, ProjectionCopiesTheCoarseBlockOfEveryVertex) {
  std::vector<NodeID> mapping(10000);
  std::vector<BlockID> coarse(97);
  for (std::size_t c = 0; c < coarse.size(); ++c)
    coarse[c] = static_cast<BlockID>(c % 5);
  for (std::size_t u = 0; u < mapping.size(); ++u)
    mapping[u] = static_cast<NodeID>((u * 31) % coarse.size());
  const std::vector<BlockID> fine = project_partition(mapping, coarse);
  ASSERT_EQ(fine.size(), mapping.size());
  for (std::size_t u = 0; u < mapping.size(); ++u)
    ASSERT_EQ(fine[u], coarse[mapping[u]]);
}

TEST(MultilevelSteps, MergeBisectionNumbersSideOneAfterSideZero) {
  // Vertices 0..5: even ones on side 0 (k0 = 2 blocks), odd ones on side 1.
  const std::vector<BlockID> blocks = merge_bisection(6, 2, [](int s) {
    SolvedSide side;
    for (NodeID u = static_cast<NodeID>(s); u < 6; u += 2) {
      side.vertices.push_back(u);
      side.blocks.push_back(u / 2 % 2);
    }
    return side;
  });
  EXPECT_EQ(blocks, (std::vector<BlockID>{0, 2, 1, 3, 0, 2}));
}

TEST(MultilevelSteps, UncoarseningRefinesEveryLevelAndProjectsBetween) {
  std::vector<std::size_t> order;
  const std::vector<BlockID> result = uncoarsen_levels(
      2, std::vector<BlockID>{7},
      [&](std::size_t level, std::vector<BlockID> b) {
        order.push_back(level);
        return b;
      },
      [&](std::size_t level, std::vector<BlockID> b) {
        order.push_back(100 + level);
        b.push_back(b.back()); // the finer level has one more vertex
        return b;
      });
  EXPECT_EQ(order, (std::vector<std::size_t>{2, 102, 1, 101, 0}));
  EXPECT_EQ(result, (std::vector<BlockID>{7, 7, 7}));
}

TEST(MultilevelSteps, FillEmptyBlocksTakesTheCheapestEligibleVertex) {
  std::vector<BlockID> blocks = {0, 0, 0, 1, 1}; // blocks 2 and 3 empty
  const std::vector<Weight> cost = {5, 1, 1, 0, 9};
  const std::vector<BlockID> empty = fill_empty_blocks(
      5, 4, [&](NodeID u) { return blocks[u]; },
      [&](NodeID u, BlockID, std::span<const NodeID> sizes) { return sizes[blocks[u]] >= 2; },
      [&](NodeID u, BlockID) { return cost[u]; }, [&](NodeID u, BlockID b) { blocks[u] = b; });
  EXPECT_TRUE(empty.empty());
  // Block 2 gets vertex 3 (cost 0); block 1 then has one vertex left, so block 3 gets vertex 1
  // (the first of the cheapest in block 0).
  EXPECT_EQ(blocks, (std::vector<BlockID>{0, 3, 0, 2, 1}));
  std::vector<BlockID> single = {0};
  EXPECT_EQ(fill_empty_blocks(
                1, 2, [&](NodeID u) { return single[u]; },
                [&](NodeID u, BlockID, std::span<const NodeID> sizes) {
                  return sizes[single[u]] >= 2;
                },
                [](NodeID, BlockID) { return Weight{0}; }, [](NodeID, BlockID) {}),
            (std::vector<BlockID>{1}));
}

TEST(MultilevelSteps, SubRoundsCoverTheOrderOnce) {
  for (std::size_t n : {0u, 1u, 7u, 1000u}) {
    std::size_t next = 0;
    for (int r = 0; r < 8; ++r) {
      const SubRound sub = sub_round(n, r, 8);
      EXPECT_EQ(sub.begin, next);
      next = sub.end;
    }
    EXPECT_EQ(next, n);
  }
}

} // namespace
} // namespace gnnpart
