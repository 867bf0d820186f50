#pragma once
// A partition's blocks kept aside to be restored later (relaxed FM keeps its start while FM
// and the rebalancer run), in as few bytes a vertex as k allows (core/narrow_blocks.h). It is
// alive together with FM's per-vertex state on the input level, the hypergraph engine's memory
// peak at k >= 8 (issue #20).
#include "core/narrow_blocks.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

class BlockSnapshot {
public:
  explicit BlockSnapshot(const PartitionedHypergraph& phg) : blocks_(phg.blocks(), phg.k()) {}

  BlockID block(NodeID u) const { return blocks_[u]; }
  // Gives phg (of the same hypergraph) the kept blocks again.
  void restore(PartitionedHypergraph& phg) const {
    phg.assign_each([&](NodeID u) { return blocks_[u]; });
  }

private:
  NarrowBlocks blocks_;
};

} // namespace gnnpart::hg
