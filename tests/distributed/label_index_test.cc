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

} // namespace
} // namespace gnnpart::distributed
