#pragma once
// A copy of a partition's blocks in as few bytes a vertex as k allows: 1 up to k = 256, 2 up to
// 65536, else 4. The copies that refinement keeps beside its working state (relaxed FM's start
// in both engines, the graph engine's record of the partition its gain cache describes) are
// alive at the memory peak of the column-net model's runs (issue #20), where 4 bytes a vertex
// were 1.3 MB of cnr-2000's and dblp-2010's.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

class NarrowBlocks {
public:
  NarrowBlocks() = default;
  // blocks[u] < k for every u.
  NarrowBlocks(std::span<const BlockID> blocks, BlockID k) {
    if (k <= (1u << 8))
      b8_.assign(blocks.begin(), blocks.end());
    else if (k <= (1u << 16))
      b16_.assign(blocks.begin(), blocks.end());
    else
      b32_.assign(blocks.begin(), blocks.end());
  }

  bool empty() const { return b8_.empty() && b16_.empty() && b32_.empty(); }
  std::size_t size() const { return b8_.size() + b16_.size() + b32_.size(); }
  BlockID operator[](NodeID u) const {
    if (!b8_.empty())
      return b8_[u];
    if (!b16_.empty())
      return b16_[u];
    return b32_[u];
  }
  // Whether `blocks` is the kept partition (an empty copy equals only an empty partition).
  bool equals(std::span<const BlockID> blocks) const {
    if (blocks.size() != size())
      return false;
    if (!b8_.empty())
      return std::equal(blocks.begin(), blocks.end(), b8_.begin());
    if (!b16_.empty())
      return std::equal(blocks.begin(), blocks.end(), b16_.begin());
    return std::equal(blocks.begin(), blocks.end(), b32_.begin());
  }
  // Frees the copy.
  void clear() { *this = NarrowBlocks(); }

private:
  // Block b is stored as b (every b < k fits the width chosen for k); one array is in use.
  std::vector<std::uint8_t> b8_;
  std::vector<std::uint16_t> b16_;
  std::vector<BlockID> b32_;
};

} // namespace gnnpart
