#pragma once
// Initial partition of the coarsest distributed graph: the graph is replicated on every rank,
// each rank runs gnnpart's shared-memory engine with its own seed, and the best result wins
// (balanced first, then the objective, then the lowest rank) — the same on every rank.
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// Blocks of the owned coarse vertices.
std::vector<BlockID> initial_partition(const Comm& comm, const DistGraph& coarse,
                                       const DistContext& ctx);

} // namespace gnnpart::distributed
