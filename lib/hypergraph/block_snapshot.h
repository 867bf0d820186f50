#pragma once
// A partition's blocks kept aside to be restored later (relaxed FM keeps its start while FM
// and the rebalancer run), in as few bytes a vertex as k allows: 1 up to k = 256, 2 up to
// 65536, else 4. It is alive together with FM's per-vertex state on the input level, the
// hypergraph engine's memory peak at k >= 8 (issue #20), where 4 bytes a vertex were 1.3 MB of
// cnr-2000's and dblp-2010's.
#include <cstdint>
#include <vector>

#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

class BlockSnapshot {
public:
  explicit BlockSnapshot(const PartitionedHypergraph& phg) {
    if (phg.k() <= (1u << 8))
      copy(phg, b8_);
    else if (phg.k() <= (1u << 16))
      copy(phg, b16_);
    else
      copy(phg, b32_);
  }

  BlockID block(NodeID u) const {
    if (!b8_.empty())
      return b8_[u];
    if (!b16_.empty())
      return b16_[u];
    return b32_[u];
  }
  // Gives phg (of the same hypergraph) the kept blocks again.
  void restore(PartitionedHypergraph& phg) const {
    if (!b8_.empty())
      phg.assign_each([&](NodeID u) { return BlockID{b8_[u]}; });
    else if (!b16_.empty())
      phg.assign_each([&](NodeID u) { return BlockID{b16_[u]}; });
    else
      phg.assign_each([&](NodeID u) { return b32_[u]; });
  }

private:
  // Block b is stored as b (every b < k fits the width chosen for k).
  template <typename T> static void copy(const PartitionedHypergraph& phg, std::vector<T>& out) {
    out.resize(phg.num_nodes());
    for (NodeID u = 0; u < phg.num_nodes(); ++u)
      out[u] = static_cast<T>(phg.block(u));
  }
  std::vector<std::uint8_t> b8_;
  std::vector<std::uint16_t> b16_;
  std::vector<BlockID> b32_;
};

} // namespace gnnpart::hg
