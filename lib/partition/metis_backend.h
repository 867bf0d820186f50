#pragma once
// Pieces of the METIS backend that tests exercise directly. partition_graph_metis itself is
// declared in partition/partitioner.h.
#include <span>
#include <string_view>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"
#include "core/types.h"

namespace gnnpart {

// Turns a METIS return code into an exception: METIS_OK returns, METIS_ERROR_INPUT throws
// InvalidParameter, METIS_ERROR_MEMORY throws SystemError, anything else throws Error.
// `what` names the call in the message.
void check_metis_status(int status, std::string_view what);

// Per-constraint bounds max_block_weight(total of c, k, epsilon), ncon entries.
std::vector<Weight> balance_bounds(const CsrGraph& graph, BlockID k, double epsilon);

// Repairs a complete k-way partition in place so that every block respects `bounds` in every
// constraint and, when n >= k, no block is empty. Moves vertices out of overloaded blocks to
// blocks with room, preferring boundary vertices whose move loses the least edge weight.
// Returns the number of moves. Throws InfeasibleBalance if it gets stuck.
std::size_t repair_balance(const CsrGraph& graph, Partition& partition,
                           std::span<const Weight> bounds);

// True when every block respects `bounds` in every constraint.
bool is_balanced(const CsrGraph& graph, const Partition& partition, std::span<const Weight> bounds);

} // namespace gnnpart
