#pragma once
// State shared by the edge partitioners: replica sets, edges per block (with the lightest block
// at hand), and the metrics gathered from them.
#include <algorithm>
#include <vector>

#include "core/metrics.h"
#include "core/partition.h"
#include "streaming/block_loads.h"
#include "streaming/replica_sets.h"

namespace gnnpart::streaming {

class EdgeAssignment {
public:
  EdgeAssignment(NodeID n, BlockID k, EdgeID m_known, double epsilon)
      : k_(k), replicas_(n, k), loads_(k) {
    cap_ = m_known > 0 ? max_block_weight(static_cast<Weight>(m_known), k, epsilon)
                       : std::numeric_limits<Weight>::max();
  }
  void ensure(NodeID u) { replicas_.ensure(u); }
  const ReplicaSets& replicas() const { return replicas_; }
  const BlockLoads& loads() const { return loads_; }
  Weight cap() const { return cap_; }
  bool has_room(BlockID b) const { return loads_[b] < cap_; }
  Weight max_load() const { return max_load_; }

  void assign(NodeID u, NodeID v, BlockID b) {
    replicas_.insert(u, b);
    replicas_.insert(v, b);
    loads_.add(b, 1);
    max_load_ = std::max(max_load_, loads_[b]);
  }

  // n: the stream's vertex count (the replica sets may have grown past it).
  EdgePartitionMetrics metrics(NodeID n, EdgeID m) const {
    EdgePartitionMetrics result;
    result.n = std::min(n, replicas_.num_nodes());
    result.m = m;
    result.k = k_;
    result.edges_per_block.assign(k_, 0);
    result.copies_per_block.assign(k_, 0);
    for (BlockID b = 0; b < k_; ++b)
      result.edges_per_block[b] = static_cast<EdgeID>(loads_[b]);
    for (NodeID u = 0; u < result.n; ++u) {
      std::uint32_t copies = 0;
      replicas_.for_each(u, [&](BlockID b) {
        ++result.copies_per_block[b];
        ++copies;
      });
      result.vertex_copies += copies;
      if (copies > 0)
        ++result.covered_vertices;
    }
    result.replication_factor =
        result.covered_vertices > 0
            ? static_cast<double>(result.vertex_copies) / result.covered_vertices
            : 0.0;
    const EdgeID ideal = (m + k_ - 1) / k_;
    result.edge_imbalance =
        ideal > 0 ? static_cast<double>(max_load_) / static_cast<double>(ideal) - 1.0 : 0.0;
    return result;
  }

private:
  BlockID k_;
  ReplicaSets replicas_;
  BlockLoads loads_;
  Weight cap_;
  Weight max_load_ = 0;
};

} // namespace gnnpart::streaming
