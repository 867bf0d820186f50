#pragma once
// The graph rebalancer family (the hypergraph engine's rebalancer, hypergraph/rebalancer.cc,
// scores moves by km1 gains instead). Sequential and deterministic.
#include <cstddef>
#include <optional>

#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

// Moves vertices out of overloaded blocks (any constraint), cheapest loss per unit of moved
// overload first, into blocks that stay within their limits. Returns whether every block is
// within its limits afterwards. If cut_increase is given, adds to it how much the moves raised
// the edge cut (exact, counted as each move is made). If cache is given (a gain cache of p's
// partition), every move updates it, so it still describes p afterwards. `positive_weights`:
// whether every edge weight of p's graph is positive, if the caller knows (KeptGainCache);
// otherwise a call with a cache reads the edge weights to find out.
class GainCache;
bool rebalance(PartitionedGraph& p, const BlockLimits& limits, Weight* cut_increase = nullptr,
               GainCache* cache = nullptr, std::optional<bool> positive_weights = std::nullopt);

// Gives every empty block one vertex (from a block with at least two) when n >= k.
void fill_empty_blocks(PartitionedGraph& p, const BlockLimits& limits);

// Balance repair of a partition made elsewhere (the METIS backend's): fills empty blocks (n >= k)
// from the most populated block, then moves vertices out of overloaded blocks while each move
// lowers the total overload, every constraint counted relative to its limit (block 0's). A move
// may overload the target in a looser constraint to relieve a tighter one (a training vertex
// into a block full of plain vertices); moves into blocks with room come first, then by edge
// gain. Returns the number of moves; throws InfeasibleBalance if it gets stuck.
std::size_t repair_overload(PartitionedGraph& p, const BlockLimits& limits);

} // namespace gnnpart::ml
