#include "hypergraph/contraction.h"

#include <algorithm>
#include <limits>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "hypergraph/net_dedup.h"

namespace gnnpart::hg {

NetSide net_side(const Hypergraph& hg) {
  return {hg.num_nodes(),   hg.net_offsets(), hg.pin_array(),
          hg.net_weights(), hg.ncon(),        hg.vertex_weights()};
}

namespace {

// Per thread: the last net that wrote each cluster (a net's repeats are skipped, no sort needed
// to count them).
using Marks = tbb::enumerable_thread_specific<std::vector<NetID>>;

// Writes the clusters of net e's pins without repeats from `out` on (pass 2) or only counts
// them (pass 1, out == nullptr); returns how many.
EdgeID map_net(std::span<const NodeID> pins, std::span<const NodeID> cluster, NetID e,
               std::vector<NetID>& mark, NodeID* out) {
  EdgeID size = 0;
  for (NodeID v : pins) {
    const NodeID c = cluster[v];
    if (mark[c] == e)
      continue;
    mark[c] = e;
    if (out != nullptr)
      out[size] = c;
    ++size;
  }
  return size;
}

// The nets of a NetSide in chunks of PackedNets::kChunkNets, read as a PackedNets is.
struct PlainNets {
  const NetSide& side;
  NetID num_nets() const { return static_cast<NetID>(side.offsets.size() - 1); }
  std::size_t num_chunks() const {
    return (std::size_t{num_nets()} + PackedNets::kChunkNets - 1) / PackedNets::kChunkNets;
  }
  template <typename F> void for_each_net(std::size_t c, std::vector<NodeID>&, F&& f) const {
    const auto first = static_cast<NetID>(c * PackedNets::kChunkNets);
    const NetID last = std::min<NetID>(num_nets(), first + PackedNets::kChunkNets);
    for (NetID e = first; e < last; ++e)
      f(e, side.pins.subspan(side.offsets[e], side.offsets[e + 1] - side.offsets[e]),
        side.net_weights.empty() ? 1 : side.net_weights[e]);
  }
};

// Contraction of `fine` (PlainNets or PackedNets) with `num_nodes` vertices of the given weights.
template <typename Nets>
Hypergraph contract_nets(const Nets& fine, NodeID num_nodes, int ncon,
                         std::span<const Weight> vertex_weights, std::span<const NodeID> cluster,
                         NodeID num_clusters) {
  const NetID m = fine.num_nets();
  auto marks = [&] {
    return Marks(
        [&] { return std::vector<NetID>(num_clusters, std::numeric_limits<NetID>::max()); });
  };
  tbb::enumerable_thread_specific<std::vector<NodeID>> buffers; // a packed net's pins
  const tbb::blocked_range<std::size_t> chunks(0, fine.num_chunks(), 1);
  // Pass 1 counts each coarse net's pins, pass 2 writes them at their offsets and sorts them
  // (fresh marks: pass 1 left net ids in them).
  NetList nets;
  nets.offsets.resize(static_cast<std::size_t>(m) + 1);
  nets.offsets[0] = 0;
  {
    Marks counting = marks();
    tbb::parallel_for(chunks, [&](const auto& r) {
      std::vector<NetID>& mark = counting.local();
      for (std::size_t c = r.begin(); c != r.end(); ++c)
        fine.for_each_net(c, buffers.local(), [&](NetID e, std::span<const NodeID> pins, Weight) {
          nets.offsets[e + 1] = map_net(pins, cluster, e, mark, nullptr);
        });
    });
  }
  for (NetID e = 0; e < m; ++e)
    nets.offsets[e + 1] += nets.offsets[e];
  nets.pins.resize(nets.offsets[m]);
  nets.weights.resize(m);
  {
    Marks writing = marks();
    tbb::parallel_for(chunks, [&](const auto& r) {
      std::vector<NetID>& mark = writing.local();
      for (std::size_t c = r.begin(); c != r.end(); ++c)
        fine.for_each_net(c, buffers.local(), [&](NetID e, std::span<const NodeID> pins, Weight w) {
          NodeID* first = nets.pins.data() + nets.offsets[e];
          const EdgeID size = map_net(pins, cluster, e, mark, first);
          std::sort(first, first + size);
          nets.weights[e] = w;
        });
    });
  }
  buffers.clear();
  NetList merged = merge_identical_nets(std::move(nets), 2);

  std::vector<Weight> weights(static_cast<std::size_t>(num_clusters) * ncon, 0);
  for (NodeID u = 0; u < num_nodes; ++u)
    for (int c = 0; c < ncon; ++c)
      weights[static_cast<std::size_t>(cluster[u]) * ncon + c] +=
          vertex_weights.empty() ? 1 : vertex_weights[static_cast<std::size_t>(u) * ncon + c];
  return Hypergraph(num_clusters, std::move(merged.offsets), std::move(merged.pins),
                    std::move(merged.weights), ncon, std::move(weights));
}

} // namespace

Hypergraph contract(const NetSide& fine, std::span<const NodeID> cluster, NodeID num_clusters) {
  return contract_nets(PlainNets{fine}, fine.num_nodes, fine.ncon, fine.vertex_weights, cluster,
                       num_clusters);
}

Hypergraph contract(const PackedNets& fine, std::span<const NodeID> cluster, NodeID num_clusters) {
  return contract_nets(fine, fine.num_nodes(), fine.ncon(), fine.vertex_weights(), cluster,
                       num_clusters);
}

Hypergraph contract(const Hypergraph& hg, std::span<const NodeID> cluster, NodeID num_clusters) {
  return contract(net_side(hg), cluster, num_clusters);
}

} // namespace gnnpart::hg
