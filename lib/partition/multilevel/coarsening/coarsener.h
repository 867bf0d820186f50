#pragma once
// Builds the hierarchy: label-propagation clustering or heavy-edge matching, and contraction,
// until the graph is small enough for initial partitioning or stops shrinking.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

struct CoarseLevel {
  CsrGraph graph;              // the coarse graph of this level
  std::vector<NodeID> mapping; // vertex of the next finer graph -> vertex of `graph`
  std::vector<BlockID> fixed;  // block a vertex of `graph` is fixed to; empty when none are
  std::vector<BlockID> communities; // community of a vertex of `graph`; empty when unrestricted
};

// ctx.algorithm, with kAuto resolved from the graph: heavy-edge matching when no vertex has more
// than ctx.matching_max_degree neighbours, else label propagation.
ClusteringAlgorithm resolve_clustering(const CsrGraph& graph, const CoarseningContext& ctx);

// Levels from finest-but-one to coarsest; empty when the input is already small. A coarse
// vertex is fixed to the block of the fixed vertex it contains (at most one, see lp_clustering).
// With communities (one id per vertex of graph), no coarse vertex spans two of them. Every
// level clusters with resolve_clustering(graph, ctx), decided on the finest graph.
std::vector<CoarseLevel> coarsen(const CsrGraph& graph, BlockID k, double epsilon,
                                 const CoarseningContext& ctx, std::uint64_t seed,
                                 std::span<const BlockID> fixed = {},
                                 std::span<const BlockID> communities = {});

} // namespace gnnpart::ml
