#pragma once
// The position of each label in a sorted list of distinct labels, by hashing instead of binary
// search: label propagation looks up the cluster of every neighbour of every vertex of a batch
// (clustering.cc), and a binary search over the batch's known clusters (about a million on
// R-MAT 10^7) missed the cache at almost every step. Open addressing with linear probing, at
// most half full: 8 bytes per slot, 16 to 32 bytes per label. sort_unique_labels makes the
// sorted list.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
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

// Sorts the labels and drops repeats, by an LSD radix sort (three passes of 11 bits) through
// scratch: a batch's known clusters are about an eighth of the rank's entries, and std::sort
// of them was the clustering's largest step after the lookups.
inline void sort_unique_labels(std::vector<NodeID>& labels, std::vector<NodeID>& scratch) {
  if (labels.size() < 256) {
    std::sort(labels.begin(), labels.end());
  } else {
    constexpr int kBits = 11;
    constexpr NodeID kMask = (NodeID{1} << kBits) - 1;
    scratch.resize(labels.size());
    NodeID* from = labels.data();
    NodeID* to = scratch.data();
    std::vector<std::size_t> count(std::size_t{1} << kBits);
    for (int shift = 0; shift < 32; shift += kBits) {
      std::fill(count.begin(), count.end(), 0);
      for (std::size_t i = 0; i < labels.size(); ++i)
        ++count[(from[i] >> shift) & kMask];
      std::size_t sum = 0;
      for (std::size_t& c : count)
        sum += std::exchange(c, sum);
      for (std::size_t i = 0; i < labels.size(); ++i)
        to[count[(from[i] >> shift) & kMask]++] = from[i];
      std::swap(from, to);
    }
    if (from != labels.data())
      std::copy(from, from + labels.size(), labels.data());
  }
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
}

} // namespace gnnpart::distributed
