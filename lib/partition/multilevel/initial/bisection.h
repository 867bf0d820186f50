#pragma once
// Flat bisection of a small (coarsest) graph: a portfolio of greedy graph growing, BFS growing
// and random assignment, each followed by 2-way FM; the best balanced result wins.
#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// limits.k == 2; fraction0 is the share of the total weight side 0 should receive.
std::vector<BlockID> initial_bisection(const CsrGraph& graph, const BlockLimits& limits,
                                       double fraction0, const InitialContext& ctx,
                                       std::uint64_t seed);

// 2-way FM on blocks 0/1 (in place): moves with rollback to the best prefix, ordered by
// (overload, cut). Returns the final cut.
Weight fm_bisection(const CsrGraph& graph, std::vector<BlockID>& side, const BlockLimits& limits,
                    int passes, int max_bad_moves, std::uint64_t seed);

} // namespace gnnpart::ml
