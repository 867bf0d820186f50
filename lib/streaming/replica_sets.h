#pragma once
// For every vertex, the set of blocks holding at least one of its edges: k bits per vertex
// (ceil(k/8) bytes), growable for streams whose vertex count is not known in advance.
#include <bit>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart::streaming {

class ReplicaSets {
public:
  ReplicaSets(NodeID n, BlockID k) : k_(k), bytes_((k + 7) / 8) {
    bits_.assign(std::size_t{n} * bytes_, 0);
  }

  NodeID num_nodes() const { return static_cast<NodeID>(bits_.size() / bytes_); }
  void ensure(NodeID u) {
    if (std::size_t{u} * bytes_ >= bits_.size()) {
      std::size_t grown = std::max<std::size_t>(std::size_t{u} + 1, num_nodes() + num_nodes() / 2);
      bits_.resize(grown * bytes_, 0);
    }
  }
  bool contains(NodeID u, BlockID b) const {
    return (bits_[std::size_t{u} * bytes_ + b / 8] >> (b % 8)) & 1;
  }
  // True when b was new for u.
  bool insert(NodeID u, BlockID b) {
    std::uint8_t& byte = bits_[std::size_t{u} * bytes_ + b / 8];
    const std::uint8_t bit = static_cast<std::uint8_t>(1u << (b % 8));
    const bool added = (byte & bit) == 0;
    byte |= bit;
    return added;
  }
  // Calls f(b) for every block of u or v (each once), in increasing order.
  template <typename F> void for_each_union(NodeID u, NodeID v, F&& f) const {
    const std::uint8_t* a = bits_.data() + std::size_t{u} * bytes_;
    const std::uint8_t* c = bits_.data() + std::size_t{v} * bytes_;
    for (std::uint32_t i = 0; i < bytes_; ++i) {
      unsigned x = a[i] | c[i];
      while (x != 0) {
        const int bit = std::countr_zero(x);
        f(static_cast<BlockID>(i * 8 + bit));
        x &= x - 1;
      }
    }
  }
  std::uint32_t count(NodeID u) const {
    std::uint32_t total = 0;
    const std::uint8_t* a = bits_.data() + std::size_t{u} * bytes_;
    for (std::uint32_t i = 0; i < bytes_; ++i)
      total += std::popcount(static_cast<unsigned>(a[i]));
    return total;
  }
  template <typename F> void for_each(NodeID u, F&& f) const { for_each_union(u, u, f); }

private:
  BlockID k_;
  std::uint32_t bytes_;
  std::vector<std::uint8_t> bits_;
};

} // namespace gnnpart::streaming
