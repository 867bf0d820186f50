#pragma once
// Deep multilevel partitioning (KaMinPar's scheme): coarsen to the size of a bisection, then
// split blocks while uncoarsening, so that a level of n vertices holds about n / C blocks and no
// level partitions into all k blocks before it has about C vertices per block. Replaces the
// recursive bisection of the coarsest graph, whose nested bisections each coarsen and refine
// their own subgraph again (issue #20: 55-58% of a fast run at k = 128 on pubmed, fe_4elt2).
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/graph.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// k = limits.k blocks, every block within limits.max(b, c), which must be the same for every b
// (uniform limits). No fixed vertices, no start partition.
std::vector<BlockID> deep_multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                               double epsilon, const MultilevelContext& ctx,
                                               std::uint64_t seed);

} // namespace gnnpart::ml
