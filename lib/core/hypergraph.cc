#include "core/hypergraph.h"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/vertex_weights.h"

namespace gnnpart {

Hypergraph::Hypergraph(NodeID num_nodes, std::vector<EdgeID> net_offsets, std::vector<NodeID> pins,
                       std::vector<Weight> net_weights, int ncon,
                       std::vector<Weight> vertex_weights)
    : num_nodes_(num_nodes), net_offsets_(std::move(net_offsets)), pins_(std::move(pins)),
      net_weights_(std::move(net_weights)) {
  if (net_offsets_.empty() || net_offsets_.front() != 0 || net_offsets_.back() != pins_.size())
    throw InvalidParameter("net offsets do not match the pin array");
  const NetID m = num_nets();
  if (!net_weights_.empty() && net_weights_.size() != m)
    throw InvalidParameter("net weight array must have one entry per net");

  for (NetID e = 0; e < m; ++e) {
    if (net_offsets_[e] > net_offsets_[e + 1])
      throw InvalidParameter(fmt::format("net offsets decrease at net {}", e));
  }

  // Sort each net's pins and drop repeats in place (in parallel), then compact.
  std::vector<EdgeID> kept(m, 0);
  const std::size_t bad_net = tbb::parallel_reduce(
      tbb::blocked_range<NetID>(0, m, 1024), std::size_t{m},
      [&](const tbb::blocked_range<NetID>& r, std::size_t bad) {
        for (NetID e = r.begin(); e != r.end(); ++e) {
          const auto first = pins_.begin() + net_offsets_[e];
          const auto last = pins_.begin() + net_offsets_[e + 1];
          std::sort(first, last);
          if (first != last && *(last - 1) >= num_nodes)
            bad = std::min<std::size_t>(bad, e);
          kept[e] = static_cast<EdgeID>(std::unique(first, last) - first);
        }
        return bad;
      },
      [](std::size_t a, std::size_t b) { return std::min(a, b); });
  if (bad_net != m)
    throw InvalidParameter(fmt::format("net {} has a pin id >= n = {}", bad_net, num_nodes));
  std::vector<EdgeID> new_offsets(static_cast<std::size_t>(m) + 1, 0);
  for (NetID e = 0; e < m; ++e)
    new_offsets[e + 1] = new_offsets[e] + kept[e];
  if (new_offsets[m] != pins_.size()) {
    std::vector<NodeID> compact(new_offsets[m]);
    tbb::parallel_for(
        tbb::blocked_range<NetID>(0, m, 1024), [&](const tbb::blocked_range<NetID>& r) {
          for (NetID e = r.begin(); e != r.end(); ++e)
            std::copy_n(pins_.begin() + net_offsets_[e], kept[e], compact.begin() + new_offsets[e]);
        });
    pins_ = std::move(compact);
  }
  net_offsets_ = std::move(new_offsets);
  shared_incidence_ = pin_matrix_symmetric();
  if (!shared_incidence_)
    build_incidence();
  set_vertex_weights(ncon, std::move(vertex_weights));
}

// Net e holds v exactly when net v holds e: then the sorted nets of every vertex u are the
// sorted pins of net u. Checked with a binary search per pin; stops at the first miss.
bool Hypergraph::pin_matrix_symmetric() const {
  if (num_nets() != num_nodes_)
    return false;
  std::atomic<bool> symmetric = true;
  tbb::parallel_for(tbb::blocked_range<NetID>(0, num_nets(), 1024),
                    [&](const tbb::blocked_range<NetID>& r) {
                      for (NetID e = r.begin(); e != r.end(); ++e) {
                        if (!symmetric.load(std::memory_order_relaxed))
                          return;
                        for (NodeID v : pins(e)) {
                          const auto other = pins(v);
                          if (!std::binary_search(other.begin(), other.end(), e)) {
                            symmetric.store(false, std::memory_order_relaxed);
                            return;
                          }
                        }
                      }
                    });
  return symmetric.load();
}

void Hypergraph::build_incidence() {
  const NodeID num_nodes = num_nodes_;
  const NetID m = num_nets();
  node_offsets_.assign(static_cast<std::size_t>(num_nodes) + 1, 0);
  // Vertex -> nets: count (atomics), prefix sum, scatter (atomics), then sort each list so the
  // result does not depend on scheduling (a net occurs at most once per vertex).
  const EdgeID num_pins = pins_.size();
  tbb::parallel_for(tbb::blocked_range<EdgeID>(0, num_pins, 4096),
                    [&](const tbb::blocked_range<EdgeID>& r) {
                      for (EdgeID i = r.begin(); i != r.end(); ++i)
                        std::atomic_ref<EdgeID>(node_offsets_[pins_[i] + 1])
                            .fetch_add(1, std::memory_order_relaxed);
                    });
  for (NodeID u = 0; u < num_nodes; ++u)
    node_offsets_[u + 1] += node_offsets_[u];
  incident_nets_.resize(num_pins);
  std::vector<EdgeID> cursor(node_offsets_.begin(), node_offsets_.end() - 1);
  tbb::parallel_for(tbb::blocked_range<NetID>(0, m, 1024), [&](const tbb::blocked_range<NetID>& r) {
    for (NetID e = r.begin(); e != r.end(); ++e) {
      for (EdgeID i = net_offsets_[e]; i < net_offsets_[e + 1]; ++i) {
        const EdgeID pos =
            std::atomic_ref<EdgeID>(cursor[pins_[i]]).fetch_add(1, std::memory_order_relaxed);
        incident_nets_[pos] = e;
      }
    }
  });
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_nodes, 1024),
                    [&](const tbb::blocked_range<NodeID>& r) {
                      for (NodeID u = r.begin(); u != r.end(); ++u)
                        std::sort(incident_nets_.begin() + node_offsets_[u],
                                  incident_nets_.begin() + node_offsets_[u + 1]);
                    });
}

Hypergraph::Arrays Hypergraph::release() {
  Arrays arrays{std::move(net_offsets_), std::move(pins_), std::move(net_weights_), ncon_,
                std::move(vertex_weights_)};
  *this = Hypergraph();
  return arrays;
}

Hypergraph::Nets Hypergraph::take_nets() {
  taken_nets_ = num_nets();
  return {std::exchange(net_offsets_, {}), std::exchange(pins_, {})};
}

void Hypergraph::put_nets(Nets nets) {
  if (!net_offsets_.empty() || nets.offsets.size() != std::size_t{taken_nets_} + 1 ||
      nets.offsets.back() != nets.pins.size())
    throw InvalidParameter("put_nets: not the net arrays that were taken");
  net_offsets_ = std::move(nets.offsets);
  pins_ = std::move(nets.pins);
}

Weight Hypergraph::total_vertex_weight(int c) const {
  return sum_vertex_weights(vertex_weights_, ncon_, c, num_nodes());
}

void Hypergraph::set_vertex_weights(int ncon, std::vector<Weight> vertex_weights) {
  check_vertex_weights(ncon, vertex_weights, num_nodes());
  ncon_ = ncon;
  vertex_weights_ = std::move(vertex_weights);
}

} // namespace gnnpart
