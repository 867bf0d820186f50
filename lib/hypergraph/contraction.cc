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

NetSide net_side(NodeID num_nodes, const Hypergraph::Arrays& arrays) {
  return {num_nodes,          arrays.net_offsets, arrays.pins,
          arrays.net_weights, arrays.ncon,        arrays.vertex_weights};
}

namespace {

// Per thread: the last net that wrote each cluster (a net's repeats are skipped, no sort needed
// to count them).
using Marks = tbb::enumerable_thread_specific<std::vector<NetID>>;

// Writes net e's clusters without repeats from `out` on (pass 2) or only counts them (pass 1,
// out == nullptr); returns how many.
EdgeID map_net(const NetSide& fine, std::span<const NodeID> cluster, NetID e,
               std::vector<NetID>& mark, NodeID* out) {
  EdgeID size = 0;
  for (EdgeID i = fine.offsets[e]; i < fine.offsets[e + 1]; ++i) {
    const NodeID c = cluster[fine.pins[i]];
    if (mark[c] == e)
      continue;
    mark[c] = e;
    if (out != nullptr)
      out[size] = c;
    ++size;
  }
  return size;
}

} // namespace

Hypergraph contract(const NetSide& fine, std::span<const NodeID> cluster, NodeID num_clusters) {
  const auto m = static_cast<NetID>(fine.offsets.size() - 1);
  const int ncon = fine.ncon;
  auto marks = [&] {
    return Marks(
        [&] { return std::vector<NetID>(num_clusters, std::numeric_limits<NetID>::max()); });
  };
  // Pass 1 counts each coarse net's pins, pass 2 writes them at their offsets and sorts them
  // (fresh marks: pass 1 left net ids in them).
  NetList nets;
  nets.offsets.resize(static_cast<std::size_t>(m) + 1);
  nets.offsets[0] = 0;
  {
    Marks counting = marks();
    tbb::parallel_for(tbb::blocked_range<NetID>(0, m, 256), [&](const auto& r) {
      std::vector<NetID>& mark = counting.local();
      for (NetID e = r.begin(); e != r.end(); ++e)
        nets.offsets[e + 1] = map_net(fine, cluster, e, mark, nullptr);
    });
  }
  for (NetID e = 0; e < m; ++e)
    nets.offsets[e + 1] += nets.offsets[e];
  nets.pins.resize(nets.offsets[m]);
  nets.weights.resize(m);
  {
    Marks writing = marks();
    tbb::parallel_for(tbb::blocked_range<NetID>(0, m, 256), [&](const auto& r) {
      std::vector<NetID>& mark = writing.local();
      for (NetID e = r.begin(); e != r.end(); ++e) {
        NodeID* first = nets.pins.data() + nets.offsets[e];
        const EdgeID size = map_net(fine, cluster, e, mark, first);
        std::sort(first, first + size);
        nets.weights[e] = fine.net_weights.empty() ? 1 : fine.net_weights[e];
      }
    });
  }
  NetList merged = merge_identical_nets(std::move(nets), 2);

  std::vector<Weight> weights(static_cast<std::size_t>(num_clusters) * ncon, 0);
  for (NodeID u = 0; u < fine.num_nodes; ++u)
    for (int c = 0; c < ncon; ++c)
      weights[static_cast<std::size_t>(cluster[u]) * ncon + c] +=
          fine.vertex_weights.empty() ? 1
                                      : fine.vertex_weights[static_cast<std::size_t>(u) * ncon + c];
  return Hypergraph(num_clusters, std::move(merged.offsets), std::move(merged.pins),
                    std::move(merged.weights), ncon, std::move(weights));
}

Hypergraph contract(const Hypergraph& hg, std::span<const NodeID> cluster, NodeID num_clusters) {
  return contract(net_side(hg), cluster, num_clusters);
}

} // namespace gnnpart::hg
