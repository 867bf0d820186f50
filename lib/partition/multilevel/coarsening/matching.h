#pragma once
// Heavy-edge matching for coarsening graphs without hubs (meshes, power grids), as METIS
// coarsens. Deterministic for a seed and independent of the thread count: edges are ranked by a
// strict order (heavier first, then the lighter pair, then a seeded hash of the pair), and in
// each round every unmatched vertex proposes to its best eligible neighbour in parallel; mutual
// proposals are matched. Run to the end this gives the greedy matching of that order.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// Cluster label per vertex, like lp_clustering: the smaller id of a matched pair, or the vertex
// itself (not compacted). Every cluster has one or two vertices and weighs at most
// max_cluster_weight in each constraint (a vertex heavier than that alone stays a singleton).
// No pair holds two fixed vertices (fixed[u] != kInvalidBlockID) or spans two communities.
// With ctx.two_hop, when more than a tenth of the vertices stay unmatched, unmatched vertices
// whose heaviest neighbour is the same are paired (leaves of a star; isolated vertices).
std::vector<NodeID> heavy_edge_matching(const CsrGraph& graph,
                                        std::span<const Weight> max_cluster_weight,
                                        const CoarseningContext& ctx, std::uint64_t seed,
                                        std::span<const BlockID> fixed = {},
                                        std::span<const BlockID> communities = {});

} // namespace gnnpart::ml
