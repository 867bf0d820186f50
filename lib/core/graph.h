#pragma once
// Undirected graph in CSR form: every edge {u, v} is stored twice (u -> v and v -> u).
// Empty weight arrays mean unit weights. Vertex weights hold ncon constraints per vertex,
// row-major (vertex u's constraint c at u * ncon + c).
#include <span>
#include <vector>

#include "core/types.h"
#include "core/vertex_weights.h"

namespace gnnpart {

class CsrGraph : public WeightedVertices {
 public:
  CsrGraph() : offsets_(1, 0) {}
  // Takes ownership of the arrays; checks their sizes (throws InvalidParameter).
  CsrGraph(std::vector<EdgeID> offsets, std::vector<NodeID> adjacency,
           std::vector<Weight> edge_weights = {}, int ncon = 1,
           std::vector<Weight> vertex_weights = {});

  CsrGraph(CsrGraph&&) noexcept = default;
  CsrGraph& operator=(CsrGraph&&) noexcept = default;
  CsrGraph(const CsrGraph&) = delete;
  CsrGraph& operator=(const CsrGraph&) = delete;
  CsrGraph copy() const;

  // The arrays, moved out; the graph is left empty (n = 0, unit weights). For callers that turn
  // the graph into another structure and back without a copy (the column-net model).
  struct Arrays {
    std::vector<EdgeID> offsets;
    std::vector<NodeID> adjacency;
    std::vector<Weight> edge_weights;
    int ncon = 1;
    std::vector<Weight> vertex_weights;
  };
  Arrays release();

  NodeID num_nodes() const { return static_cast<NodeID>(offsets_.size() - 1); }
  // Directed entries in the adjacency array (2m for a symmetric graph).
  EdgeID num_directed_edges() const { return adjacency_.size(); }
  // Undirected edges m.
  EdgeID num_edges() const { return adjacency_.size() / 2; }

  EdgeID first_edge(NodeID u) const { return offsets_[u]; }
  EdgeID last_edge(NodeID u) const { return offsets_[u + 1]; }
  NodeID degree(NodeID u) const { return static_cast<NodeID>(offsets_[u + 1] - offsets_[u]); }
  NodeID edge_target(EdgeID e) const { return adjacency_[e]; }
  std::span<const NodeID> neighbors(NodeID u) const {
    return {adjacency_.data() + offsets_[u], adjacency_.data() + offsets_[u + 1]};
  }

  bool has_edge_weights() const { return !edge_weights_.empty(); }
  Weight edge_weight(EdgeID e) const { return edge_weights_.empty() ? 1 : edge_weights_[e]; }

  // Sum of constraint c over all vertices.
  Weight total_vertex_weight(int c = 0) const;

  // Replaces the vertex weights (size n * ncon, or empty with ncon = 1 for unit weights).
  void set_vertex_weights(int ncon, std::vector<Weight> vertex_weights);
  void set_edge_weights(std::vector<Weight> edge_weights);

  std::span<const EdgeID> offsets() const { return offsets_; }
  std::span<const NodeID> adjacency() const { return adjacency_; }
  std::span<const Weight> edge_weights() const { return edge_weights_; }

 private:
  std::vector<EdgeID> offsets_;
  std::vector<NodeID> adjacency_;
  std::vector<Weight> edge_weights_;
};

// The first vertex u with an entry u -> v that has no matching v -> u of the same weight
// (multiplicities counted), or kInvalidNodeID when the graph is symmetric. O(m log d).
NodeID find_asymmetric_vertex(const CsrGraph& graph);
inline bool is_symmetric(const CsrGraph& graph) {
  return find_asymmetric_vertex(graph) == kInvalidNodeID;
}

}  // namespace gnnpart
