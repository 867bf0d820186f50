#pragma once
// Gain cache for edge-cut moves: for every vertex the connection weight to each block among its
// neighbours' blocks, in a row with capacity min(deg, k) (so memory is at most one entry per
// adjacency entry). A row shorter than k is a list of (block, conn) in use; a row of k entries
// (deg >= k) is dense, indexed by block, so high-degree vertices update in O(1).
// gain(u -> b) = conn(u, b) - conn(u, block(u)).
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

class GainCache {
public:
  GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k);

  Weight conn(NodeID u, BlockID b) const {
    const Entry* e = entries_.data() + offsets_[u];
    if (size_[u] == kDense)
      return e[b].conn;
    for (std::uint32_t i = 0; i < size_[u]; ++i)
      if (e[i].block == b)
        return e[i].conn;
    return 0;
  }
  // f(block, conn) for every block u is connected to.
  template <typename F> void for_each(NodeID u, F&& f) const {
    const Entry* e = entries_.data() + offsets_[u];
    if (size_[u] == kDense) {
      for (BlockID b = 0; b < k_; ++b)
        if (e[b].conn != 0)
          f(b, static_cast<Weight>(e[b].conn));
      return;
    }
    for (std::uint32_t i = 0; i < size_[u]; ++i)
      f(e[i].block, static_cast<Weight>(e[i].conn));
  }
  // Updates the neighbours of u after u moved from `from` to `to`.
  void moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to);

  // Whether conn values fit the 32-bit entries (total edge weight below 2^31).
  static bool supports(const CsrGraph& graph);

private:
  static constexpr std::uint32_t kDense = ~std::uint32_t{0}; // size_ of a dense row
  struct Entry {
    BlockID block;
    std::int32_t conn;
  };
  BlockID k_;
  std::vector<EdgeID> offsets_;
  std::vector<std::uint32_t> size_; // entries in use, or kDense
  std::vector<Entry> entries_;
};

} // namespace gnnpart::ml
