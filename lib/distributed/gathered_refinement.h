#pragma once
// Refinement of a level small enough to copy: the level is replicated on every rank
// (replicate.h), each rank refines the projected partition with the shared-memory engine's
// refiners (its default preset: rebalancing, label propagation, FM; partition/multilevel/
// refinement/refiners.h) under its own seed, and the best result wins (within the bound
// first, then the weighted cut, then the lowest rank), the same on every rank. Used on the
// coarse levels whose entries are at most DistContext::gather_fraction of a rank's share of
// the input's entries, so it adds at most about 12 * gather_fraction bytes per local input
// entry (the copy: adjacency and edge weights), plus the FM gain cache (8 bytes per entry of the
// copy), to the level's memory.
#include <cstdint>
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// Whether gathered_refine copies this level (at most max_entries entries, k >= 2).
bool gathers(const DistGraph& graph, const DistContext& ctx, std::uint64_t max_entries);

// blocks spans owned and ghost vertices (ghosts current on entry and on return). Returns whether
// the level was small enough (max_entries: the largest 2 * global_m to copy). Collective.
bool gathered_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                     std::uint64_t max_entries, std::vector<BlockID>& blocks);

} // namespace gnnpart::distributed
