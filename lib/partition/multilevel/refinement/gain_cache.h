#pragma once
// Sparse gain cache for edge-cut moves: for every vertex the connection weight to each block
// among its neighbours' blocks, as a short list with capacity min(deg, k) (so memory is at most
// one entry per adjacency entry). gain(u -> b) = conn(u, b) - conn(u, block(u)).
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
    for (std::uint32_t i = 0; i < size_[u]; ++i)
      if (e[i].block == b)
        return e[i].conn;
    return 0;
  }
  template <typename F> void for_each(NodeID u, F&& f) const {
    const Entry* e = entries_.data() + offsets_[u];
    for (std::uint32_t i = 0; i < size_[u]; ++i)
      f(e[i].block, static_cast<Weight>(e[i].conn));
  }
  // Updates the neighbours of u after u moved from `from` to `to`.
  void moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to);

  // Whether conn values fit the 32-bit entries (total edge weight below 2^31).
  static bool supports(const CsrGraph& graph);

private:
  struct Entry {
    BlockID block;
    std::int32_t conn;
  };
  void add(NodeID u, BlockID b, std::int32_t w);
  std::vector<EdgeID> offsets_;
  std::vector<std::uint32_t> size_;
  std::vector<Entry> entries_;
};

} // namespace gnnpart::ml
