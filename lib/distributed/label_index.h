#pragma once
// The position of each label in a sorted list of distinct labels, by hashing instead of binary
// search: label propagation looks up the cluster of every neighbour of every vertex of a batch
// (clustering.cc), and a binary search over the batch's known clusters (about a million on
// R-MAT 10^7) missed the cache at almost every step. Open addressing with linear probing, at
// most half full: 8 bytes per slot, 16 to 32 bytes per label.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::distributed {

class LabelIndex {
public:
  // Indexes sorted (distinct labels): at(sorted[i]) == i.
  void assign(std::span<const NodeID> sorted) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * sorted.size()));
    mask_ = capacity - 1;
    slots_.assign(capacity, Slot{kInvalidNodeID, 0});
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      std::size_t s = slot_of(sorted[i]);
      while (slots_[s].label != kInvalidNodeID)
        s = (s + 1) & mask_;
      slots_[s] = Slot{sorted[i], static_cast<std::uint32_t>(i)};
    }
  }
  // The index of a label that assign saw.
  std::uint32_t at(NodeID label) const {
    std::size_t s = slot_of(label);
    while (slots_[s].label != label)
      s = (s + 1) & mask_;
    return slots_[s].index;
  }

private:
  struct Slot {
    NodeID label;
    std::uint32_t index;
  };
  std::size_t slot_of(NodeID label) const {
    return static_cast<std::size_t>((label * 0x9e3779b97f4a7c15ULL) >> 32) & mask_;
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

} // namespace gnnpart::distributed
