// NarrowBlocks keeps a partition's blocks in 1, 2 or 4 bytes a vertex by k: every block read
// back, and equals() tells the kept partition from one that differs in one vertex (its largest
// block ids too) or in size, at k on both sides of each width's limit.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "core/narrow_blocks.h"
#include "core/random.h"
#include "core/types.h"

namespace gnnpart {
namespace {

TEST(NarrowBlocks, KeepsEveryBlockAtEveryWidth) {
  for (BlockID k : {1u, 2u, 256u, 257u, 65536u, 65537u, 1u << 20}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k);
    const NodeID n = 1000;
    std::vector<BlockID> blocks(n);
    for (NodeID u = 0; u < n; ++u) // the largest block ids too
      blocks[u] = static_cast<BlockID>(u % 3 == 0 ? k - 1 - rng.below(std::min<BlockID>(k, 2))
                                                  : rng.below(k));
    NarrowBlocks kept(blocks, k);
    ASSERT_FALSE(kept.empty());
    ASSERT_EQ(kept.size(), n);
    for (NodeID u = 0; u < n; ++u)
      ASSERT_EQ(kept[u], blocks[u]) << "vertex " << u;
    EXPECT_TRUE(kept.equals(blocks));
    if (k > 1) {
      std::vector<BlockID> other = blocks;
      other[n / 2] = (other[n / 2] + 1) % k;
      EXPECT_FALSE(kept.equals(other));
      other = blocks;
      other.back() = other.back() == k - 1 ? 0 : k - 1;
      EXPECT_FALSE(kept.equals(other));
    }
    std::vector<BlockID> shorter(blocks.begin(), blocks.end() - 1);
    EXPECT_FALSE(kept.equals(shorter));
    kept.clear();
    EXPECT_TRUE(kept.empty());
    EXPECT_EQ(kept.size(), 0u);
    EXPECT_FALSE(kept.equals(blocks));
  }
}

} // namespace
} // namespace gnnpart
