#pragma once
// Block weights with the lightest block in O(log k): a small tournament tree over k blocks.
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart::streaming {

class BlockLoads {
public:
  explicit BlockLoads(BlockID k) : k_(k) {
    size_ = 1;
    while (size_ < k)
      size_ <<= 1;
    weights_.assign(k, 0);
    tree_.assign(2 * size_, kInvalidBlockID);
    for (BlockID b = 0; b < k; ++b)
      tree_[size_ + b] = b;
    for (std::size_t i = size_ - 1; i >= 1; --i)
      tree_[i] = better(tree_[2 * i], tree_[2 * i + 1]);
  }
  BlockID k() const { return k_; }
  Weight operator[](BlockID b) const { return weights_[b]; }
  const std::vector<Weight>& weights() const { return weights_; }
  void add(BlockID b, Weight delta) {
    weights_[b] += delta;
    for (std::size_t i = (size_ + b) >> 1; i >= 1; i >>= 1) {
      tree_[i] = better(tree_[2 * i], tree_[2 * i + 1]);
    }
  }
  // Lightest block, the lowest id among equals.
  BlockID lightest() const { return tree_[1]; }
  Weight min_weight() const { return weights_[tree_[1]]; }

private:
  BlockID better(BlockID a, BlockID b) const {
    if (a == kInvalidBlockID)
      return b;
    if (b == kInvalidBlockID)
      return a;
    if (weights_[b] < weights_[a] || (weights_[b] == weights_[a] && b < a))
      return b;
    return a;
  }
  BlockID k_;
  std::size_t size_;
  std::vector<Weight> weights_;
  std::vector<BlockID> tree_;
};

} // namespace gnnpart::streaming
