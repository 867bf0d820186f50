#pragma once
// Groups of vertices that the bottleneck refiner moves together: the clusters of coarser levels
// of a partitioned hypergraph, each inside one block, so that a move of a whole cluster (what a
// multilevel refinement does on a coarse level) is priced exactly on the input hypergraph.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"
#include "hypergraph/context.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// Unit i is members[offsets[i] .. offsets[i + 1]), sorted; every vertex is in one unit.
struct MoveUnits {
  std::vector<std::uint32_t> offsets{0};
  std::vector<NodeID> members;

  NodeID size() const { return static_cast<NodeID>(offsets.size() - 1); }
  std::span<const NodeID> unit(NodeID i) const {
    return std::span<const NodeID>(members).subspan(offsets[i], offsets[i + 1] - offsets[i]);
  }
};

// Up to `levels` clusterings of phg's hypergraph, each coarsening the one before by about
// ctx.coarsening.max_shrink_per_pass with the engine's clustering pass (deterministic for any
// thread count), never across phg's blocks; a cluster weighs at most max(1, the smallest block
// limit / ctx.bottleneck.unit_weight_divisor) per constraint. Coarsest first; fewer when a pass
// stops shrinking.
std::vector<MoveUnits> move_unit_levels(const PartitionedHypergraph& phg, const HgContext& ctx,
                                        std::span<const Weight> max_weights, int levels,
                                        std::uint64_t seed);

} // namespace gnnpart::hg
