#pragma once
// Moves vertices out of overloaded blocks (any constraint), cheapest loss per unit of moved
// overload first, into blocks that stay within their limits. Sequential and deterministic.
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Returns whether every block is within its limits afterwards. If cut_increase is given, adds
// to it how much the moves raised the edge cut (exact, counted as each move is made).
bool rebalance(PartitionedGraph& p, const BlockLimits& limits, Weight* cut_increase = nullptr);

// Gives every empty block one vertex (from a block with at least two) when n >= k.
void fill_empty_blocks(PartitionedGraph& p, const BlockLimits& limits);

} // namespace gnnpart::ml
