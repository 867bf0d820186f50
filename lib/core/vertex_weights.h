#pragma once
// Vertex weights as CsrGraph and Hypergraph store them: n * ncon values laid out as u * ncon + c,
// or an empty array with ncon = 1 for unit weights.
#include <span>

#include "core/types.h"

namespace gnnpart {

// Throws InvalidParameter unless ncon >= 1 and the array holds n * ncon values, or is empty with
// ncon = 1.
void check_vertex_weights(int ncon, std::span<const Weight> vertex_weights, NodeID n);

// Sum of constraint c over the n vertices; n for unit weights.
Weight sum_vertex_weights(std::span<const Weight> vertex_weights, int ncon, int c, NodeID n);

} // namespace gnnpart
