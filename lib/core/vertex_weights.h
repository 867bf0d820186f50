#pragma once
// Vertex weights as CsrGraph and Hypergraph store them: n * ncon values laid out as u * ncon + c,
// or an empty array with ncon = 1 for unit weights.
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

// The vertex weights of CsrGraph and Hypergraph (both derive from this) and how they are read.
class WeightedVertices {
public:
  int ncon() const { return ncon_; }
  bool has_vertex_weights() const { return !vertex_weights_.empty(); }
  Weight vertex_weight(NodeID u, int c = 0) const {
    return vertex_weights_.empty() ? 1 : vertex_weights_[static_cast<std::size_t>(u) * ncon_ + c];
  }
  std::span<const Weight> vertex_weights() const { return vertex_weights_; }

protected:
  int ncon_ = 1;
  std::vector<Weight> vertex_weights_;
};

// Throws InvalidParameter unless ncon >= 1 and the array holds n * ncon values, or is empty with
// ncon = 1.
void check_vertex_weights(int ncon, std::span<const Weight> vertex_weights, NodeID n);

// Sum of constraint c over the n vertices; n for unit weights.
Weight sum_vertex_weights(std::span<const Weight> vertex_weights, int ncon, int c, NodeID n);

} // namespace gnnpart
