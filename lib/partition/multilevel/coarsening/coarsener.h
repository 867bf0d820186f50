#pragma once
// Builds the hierarchy: label-propagation clustering and contraction until the graph is small
// enough for initial partitioning or stops shrinking.
#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

struct CoarseLevel {
  CsrGraph graph;              // the coarse graph of this level
  std::vector<NodeID> mapping; // vertex of the next finer graph -> vertex of `graph`
};

// Levels from finest-but-one to coarsest; empty when the input is already small.
std::vector<CoarseLevel> coarsen(const CsrGraph& graph, BlockID k, double epsilon,
                                 const CoarseningContext& ctx, std::uint64_t seed);

} // namespace gnnpart::ml
