// LabelIndex (the clustering's label -> position map) against binary search.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/random.h"
#include "distributed/label_index.h"

namespace gnnpart::distributed {
namespace {

TEST(LabelIndex, PositionsEqualBinarySearch) {
  Rng rng(7);
  LabelIndex index;
  for (const std::size_t size : {0, 1, 2, 15, 16, 17, 1000, 70000}) {
    std::vector<NodeID> labels;
    for (std::size_t i = 0; i < size; ++i) // clustered and spread ids, the largest valid id
      labels.push_back(static_cast<NodeID>(i % 3 == 0 ? rng.below(kMaxNodeID + 1) : i * 64));
    labels.push_back(static_cast<NodeID>(kMaxNodeID));
    labels.push_back(0);
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    index.assign(labels); // reused: the previous table is replaced
    for (std::size_t i = 0; i < labels.size(); ++i)
      ASSERT_EQ(index.at(labels[i]), i) << "size " << size << " label " << labels[i];
  }
}

TEST(LabelIndex, RadixSortUniqueEqualsStdSort) {
  Rng rng(9);
  std::vector<NodeID> scratch;
  for (const std::size_t size : {0, 1, 255, 256, 257, 5000, 100000}) {
    std::vector<NodeID> labels;
    for (std::size_t i = 0; i < size; ++i) // repeats, small ids and ids up to 2^32 - 2
      labels.push_back(
          static_cast<NodeID>(i % 2 == 0 ? rng.below(1000) : rng.below(kMaxNodeID + 1)));
    std::vector<NodeID> expected = labels;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    sort_unique_labels(labels, scratch);
    EXPECT_EQ(labels, expected) << "size " << size;
  }
}

} // namespace
} // namespace gnnpart::distributed
