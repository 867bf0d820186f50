#pragma once
// Initial partition of the coarsest distributed graph, given as its copy on every rank
// (replicate.h): each rank runs gnnpart's shared-memory engine with its own seed, and the best
// result wins (balanced first, then the objective, then the lowest rank) — the same on every
// rank.
#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "distributed/comm.h"
#include "distributed/context.h"

namespace gnnpart::distributed {

// Blocks of this rank's coarse vertices [first, first + n_local) of the copy. Collective.
std::vector<BlockID> initial_partition(const Comm& comm, const CsrGraph& copy, std::uint64_t first,
                                       NodeID n_local, const DistContext& ctx);

} // namespace gnnpart::distributed
