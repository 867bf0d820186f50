#pragma once
// Hypergraph with both incidence directions in CSR form: net -> pins and vertex -> nets.
// Empty weight arrays mean unit weights; vertex weights hold ncon constraints per vertex.
// When the pin matrix is symmetric (net u holds v exactly when net v holds u, as in the
// column-net model of a graph), vertex -> nets is the same CSR as net -> pins and is not
// stored twice.
#include <span>
#include <utility>
#include <vector>

#include "core/types.h"
#include "core/vertex_weights.h"

namespace gnnpart {

class Hypergraph : public WeightedVertices {
 public:
  Hypergraph() : net_offsets_(1, 0), node_offsets_(1, 0) {}
  // Takes the net -> pins arrays and builds vertex -> nets in parallel. Pins must be < n;
  // a pin repeated inside one net is kept once. Throws InvalidParameter on bad sizes or ids.
  Hypergraph(NodeID num_nodes, std::vector<EdgeID> net_offsets, std::vector<NodeID> pins,
             std::vector<Weight> net_weights = {}, int ncon = 1,
             std::vector<Weight> vertex_weights = {});

  Hypergraph(Hypergraph&&) noexcept = default;
  Hypergraph& operator=(Hypergraph&&) noexcept = default;
  Hypergraph(const Hypergraph&) = delete;
  Hypergraph& operator=(const Hypergraph&) = delete;

  // The net -> pins arrays and weights, moved out; the hypergraph is left empty. For callers
  // that turn it back into the structure it was built from (the column-net model's graph).
  struct Arrays {
    std::vector<EdgeID> net_offsets;
    std::vector<NodeID> pins;
    std::vector<Weight> net_weights;
    int ncon = 1;
    std::vector<Weight> vertex_weights;
  };
  Arrays release();
  // The net -> pins arrays (offsets and pins), taken out for a while by the owner of a
  // hypergraph that is idle meanwhile (the multilevel cycle keeps its input's nets packed while
  // coarser levels are worked on: hypergraph/coarsening.h). Until put_nets gives the same arrays
  // back, nothing but num_nodes(), num_nets() and the weights may be read.
  struct Nets {
    std::vector<EdgeID> offsets;
    std::vector<NodeID> pins;
  };
  Nets take_nets();
  void put_nets(Nets nets);

  NodeID num_nodes() const { return num_nodes_; }
  NetID num_nets() const {
    return net_offsets_.empty() ? taken_nets_ : static_cast<NetID>(net_offsets_.size() - 1);
  }
  EdgeID num_pins() const { return pins_.size(); }

  std::span<const NodeID> pins(NetID e) const {
    return {pins_.data() + net_offsets_[e], pins_.data() + net_offsets_[e + 1]};
  }
  NodeID net_size(NetID e) const { return static_cast<NodeID>(net_offsets_[e + 1] - net_offsets_[e]); }
  std::span<const NetID> incident_nets(NodeID u) const {
    const std::vector<EdgeID>& offsets = node_offsets_ref();
    const NetID* nets = shared_incidence_ ? pins_.data() : incident_nets_.data();
    return {nets + offsets[u], nets + offsets[u + 1]};
  }
  NodeID node_degree(NodeID u) const {
    const std::vector<EdgeID>& offsets = node_offsets_ref();
    return static_cast<NodeID>(offsets[u + 1] - offsets[u]);
  }
  // True when vertex -> nets shares the net -> pins arrays (a symmetric pin matrix).
  bool shares_incidence() const { return shared_incidence_; }

  bool has_net_weights() const { return !net_weights_.empty(); }
  Weight net_weight(NetID e) const { return net_weights_.empty() ? 1 : net_weights_[e]; }
  Weight total_vertex_weight(int c = 0) const;
  void set_vertex_weights(int ncon, std::vector<Weight> vertex_weights);

  std::span<const EdgeID> net_offsets() const { return net_offsets_; }
  std::span<const NodeID> pin_array() const { return pins_; }
  std::span<const EdgeID> node_offsets() const { return node_offsets_ref(); }
  std::span<const NetID> incident_net_array() const {
    return shared_incidence_ ? std::span<const NetID>(pins_) : std::span<const NetID>(incident_nets_);
  }
  std::span<const Weight> net_weights() const { return net_weights_; }

 private:
  const std::vector<EdgeID>& node_offsets_ref() const {
    return shared_incidence_ ? net_offsets_ : node_offsets_;
  }
  bool pin_matrix_symmetric() const;
  void build_incidence();

  NodeID num_nodes_ = 0;
  NetID taken_nets_ = 0; // num_nets() while take_nets() holds the offsets
  bool shared_incidence_ = false;
  std::vector<EdgeID> net_offsets_;
  std::vector<NodeID> pins_;
  std::vector<EdgeID> node_offsets_;
  std::vector<NetID> incident_nets_;
  std::vector<Weight> net_weights_;
};

}  // namespace gnnpart
