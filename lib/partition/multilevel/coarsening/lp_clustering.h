#pragma once
// Size-constrained label-propagation clustering. Deterministic for a seed, independent of the
// thread count: each round visits the vertices in batches; the moves of a batch are computed in
// parallel from the state before the batch, then applied in batch order with weight checks.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// Cluster label per vertex (labels are vertex ids; not compacted). max_cluster_weight has one
// entry per constraint. Vertices with fixed[u] != kInvalidBlockID never leave their own cluster,
// so no cluster holds two fixed vertices (free vertices may join them); empty fixed: none.
// With communities (one id per vertex, e.g. the blocks of a partition in a V-cycle), no cluster
// spans two communities.
std::vector<NodeID> lp_clustering(const CsrGraph& graph, std::span<const Weight> max_cluster_weight,
                                  const CoarseningContext& ctx, std::uint64_t seed,
                                  std::span<const BlockID> fixed = {},
                                  std::span<const BlockID> communities = {});

} // namespace gnnpart::ml
