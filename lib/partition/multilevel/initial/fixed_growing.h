#pragma once
// Initial k-way partition of a (coarsest) graph with fixed vertices: every block grows from its
// fixed vertices, always taking the free vertex most strongly connected to a block that still
// has room. A partition that ignores the pins and is renamed afterwards can put a block's pins
// on the wrong side of the graph; growing from them cannot.
#include <span>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// fixed[u]: u's block or kInvalidBlockID. Free vertices not reachable from any block start in
// the lightest block with room; a vertex that fits nowhere goes to the lightest block (the
// rebalancer then repairs the overload).
std::vector<BlockID> grow_from_fixed(const CsrGraph& graph, const BlockLimits& limits,
                                     std::span<const BlockID> fixed);

} // namespace gnnpart::ml
