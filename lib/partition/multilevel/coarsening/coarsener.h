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
  CsrGraph graph;                   // the coarse graph of this level
  std::vector<NodeID> mapping;      // vertex of the next finer graph -> vertex of `graph`
  std::vector<BlockID> fixed;       // block a vertex of `graph` is fixed to; empty when none are
  std::vector<BlockID> communities; // community of a vertex of `graph`; empty when unrestricted
};

// ctx.algorithm, with kAuto resolved from the graph: heavy-edge matching unless the vertices with
// more than ctx.matching_max_degree neighbours hold more than ctx.matching_max_hub_share of the
// arc ends (sum of degrees), else label propagation.
ClusteringAlgorithm resolve_clustering(const CsrGraph& graph, const CoarseningContext& ctx);

// The levels of one multilevel run: level 0 is the input, level i > 0 is levels[i - 1].
struct Hierarchy {
  const CsrGraph* input = nullptr;
  std::span<const BlockID> input_fixed;
  std::vector<CoarseLevel> levels; // finest-but-one to coarsest

  std::size_t coarsest() const { return levels.size(); }
  const CsrGraph& graph(std::size_t level) const {
    return level == 0 ? *input : levels[level - 1].graph;
  }
  std::span<const BlockID> fixed(std::size_t level) const {
    return level == 0 ? input_fixed : std::span<const BlockID>(levels[level - 1].fixed);
  }
};

// Levels until the graph is small or stops shrinking (none when the input is already small). A
// coarse vertex is fixed to the block of the fixed vertex it contains (at most one, see
// lp_clustering). With communities (one id per vertex of graph), no coarse vertex spans two of
// them. Every level clusters with resolve_clustering(graph, ctx), decided on the finest graph.
// The graph is small at ctx.contraction_limit * stop_k vertices (0: k; deep multilevel coarsens
// to a bisection's size and keeps the cluster weights of k blocks).
Hierarchy coarsen(const CsrGraph& graph, BlockID k, double epsilon, const CoarseningContext& ctx,
                  std::uint64_t seed, std::span<const BlockID> fixed = {},
                  std::span<const BlockID> communities = {}, BlockID stop_k = 0);

// The vertices of level - 1, in increasing order, whose coarse vertex in `level` has
// flags[c] != 0 (call before project_and_free, which frees the map). With flags marking the
// boundary of a partition of `level`, every vertex outside the list has all its neighbours in
// its own block once the partition is projected: its neighbours lie in its coarse vertex or in
// the coarse vertex's neighbours.
std::vector<NodeID> project_flags(const Hierarchy& h, std::size_t level,
                                  std::span<const std::uint8_t> flags);

// Level level - 1's partition projected from `blocks` of `level`, and the coarse level (graph
// and map into it) freed: uncoarsening never returns to it, and the map of the input (4 bytes a
// vertex) alive during the input level's refinement was the column-net model's memory peak at
// k >= 8 (issue #20).
std::vector<BlockID> project_and_free(Hierarchy& h, std::size_t level,
                                      std::span<const BlockID> blocks);

} // namespace gnnpart::ml
