#pragma once
// One clustering pass of coarsening: every singleton vertex, in a seeded order split into
// synchronous sub-rounds, rates the clusters of its neighbours with the heavy-net rating
//   r(u, C) = sum over nets e shared by u and C, |e| <= max_rating_net_size, of w(e) / (|e| - 1)
// in parallel against a frozen state, then joins its best cluster in a sequential, ordered
// application step if the weight limit still holds. Deterministic for any thread count.
#include <span>
#include <vector>

#include "core/hypergraph.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// Returns the cluster of every vertex, ids compacted to 0 .. *num_clusters - 1.
// max_cluster_weight: one limit per constraint. Stops once target_clusters is reached.
// With communities (one id per vertex), clusters never span two communities (V-cycles).
std::vector<NodeID> compute_clustering(const Hypergraph& hg, const CoarseningContext& ctx,
                                       std::span<const Weight> max_cluster_weight,
                                       NodeID target_clusters, std::uint64_t seed,
                                       NodeID* num_clusters,
                                       std::span<const BlockID> communities = {});

} // namespace gnnpart::hg
