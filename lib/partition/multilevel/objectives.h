#pragma once
// Objective values of a block assignment (sequential; for logging, tests and the bisection).
#include <span>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

// Sum of the weights of edges between blocks.
Weight edge_cut(const CsrGraph& graph, std::span<const BlockID> blocks);

// Sum over u of lambda(u) - 1, lambda(u) = distinct blocks among {u} and N(u).
Weight communication_volume(const CsrGraph& graph, std::span<const BlockID> blocks);

} // namespace gnnpart::ml
