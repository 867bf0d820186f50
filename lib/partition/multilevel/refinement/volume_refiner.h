#pragma once
// Greedy refinement of the communication volume sum_u (lambda(u) - 1), lambda(u) = distinct
// blocks in {u} and N(u). Keeps, for every vertex, the count of its closed neighbourhood per
// block (a short list, at most min(deg + 1, k) entries), so the exact volume change of a move
// is sum over w in N[u] of [count_w(to) == 0] - [count_w(from) == 1]. Sequential, deterministic.
#include <cstdint>

#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Returns the total volume improvement.
Weight volume_refine(PartitionedGraph& p, const BlockLimits& limits, int passes,
                     std::uint64_t seed);

} // namespace gnnpart::ml
