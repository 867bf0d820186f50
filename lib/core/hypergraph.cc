#include "core/hypergraph.h"

#include <algorithm>

#include "core/errors.h"

namespace gnnpart {

Hypergraph::Hypergraph(NodeID num_nodes, std::vector<EdgeID> net_offsets, std::vector<NodeID> pins,
                       std::vector<Weight> net_weights, int ncon, std::vector<Weight> vertex_weights)
    : net_offsets_(std::move(net_offsets)),
      pins_(std::move(pins)),
      node_offsets_(static_cast<std::size_t>(num_nodes) + 1, 0),
      net_weights_(std::move(net_weights)) {
  if (net_offsets_.empty() || net_offsets_.front() != 0 || net_offsets_.back() != pins_.size())
    throw InvalidParameter("net offsets do not match the pin array");
  const NetID m = num_nets();
  if (!net_weights_.empty() && net_weights_.size() != m)
    throw InvalidParameter("net weight array must have one entry per net");

  // Sort each net's pins and drop repeats, compacting the pin array in place in one pass.
  EdgeID write = 0;
  for (NetID e = 0; e < m; ++e) {
    const EdgeID begin = net_offsets_[e];
    const EdgeID end = net_offsets_[e + 1];
    std::sort(pins_.begin() + begin, pins_.begin() + end);
    net_offsets_[e] = write;
    for (EdgeID i = begin; i < end; ++i) {
      if (pins_[i] >= num_nodes) throw InvalidParameter("pin id out of range");
      if (i > begin && pins_[i] == pins_[i - 1]) continue;
      pins_[write++] = pins_[i];
    }
  }
  net_offsets_[m] = write;
  pins_.resize(write);
  pins_.shrink_to_fit();

  // Vertex -> nets: count, prefix sum, scatter in net order (so the lists come out sorted).
  for (NodeID pin : pins_) ++node_offsets_[pin + 1];
  for (NodeID u = 0; u < num_nodes; ++u) node_offsets_[u + 1] += node_offsets_[u];
  incident_nets_.resize(pins_.size());
  std::vector<EdgeID> cursor(node_offsets_.begin(), node_offsets_.end() - 1);
  for (NetID e = 0; e < m; ++e) {
    for (EdgeID i = net_offsets_[e]; i < net_offsets_[e + 1]; ++i) incident_nets_[cursor[pins_[i]]++] = e;
  }
  set_vertex_weights(ncon, std::move(vertex_weights));
}

Weight Hypergraph::total_vertex_weight(int c) const {
  if (vertex_weights_.empty()) return num_nodes();
  Weight total = 0;
  for (std::size_t u = 0; u < num_nodes(); ++u) total += vertex_weights_[u * ncon_ + c];
  return total;
}

void Hypergraph::set_vertex_weights(int ncon, std::vector<Weight> vertex_weights) {
  if (ncon < 1) throw InvalidParameter("ncon must be at least 1");
  if (vertex_weights.empty() && ncon != 1) throw InvalidParameter("unit vertex weights need ncon = 1");
  if (!vertex_weights.empty() && vertex_weights.size() != static_cast<std::size_t>(num_nodes()) * ncon)
    throw InvalidParameter("vertex weight array must have n * ncon entries");
  ncon_ = ncon;
  vertex_weights_ = std::move(vertex_weights);
}

}  // namespace gnnpart
