#include "hypergraph/contraction.h"

#include <algorithm>

#include <tbb/parallel_for.h>

#include "hypergraph/net_dedup.h"

namespace gnnpart::hg {

Hypergraph contract(const Hypergraph& hg, std::span<const NodeID> cluster, NodeID num_clusters) {
  const NetID m = hg.num_nets();
  const int ncon = hg.ncon();
  // Mapped pins at the fine offsets, sorted and deduplicated per net.
  std::vector<NodeID> mapped(hg.num_pins());
  std::vector<EdgeID> size(m);
  const auto offsets = hg.net_offsets();
  tbb::parallel_for(tbb::blocked_range<NetID>(0, m, 256), [&](const auto& r) {
    for (NetID e = r.begin(); e != r.end(); ++e) {
      const auto pins = hg.pins(e);
      auto first = mapped.begin() + offsets[e];
      for (std::size_t i = 0; i < pins.size(); ++i)
        first[i] = cluster[pins[i]];
      std::sort(first, first + pins.size());
      size[e] = std::unique(first, first + pins.size()) - first;
    }
  });
  NetList nets;
  nets.offsets.resize(static_cast<std::size_t>(m) + 1);
  nets.offsets[0] = 0;
  for (NetID e = 0; e < m; ++e)
    nets.offsets[e + 1] = nets.offsets[e] + size[e];
  nets.pins.resize(nets.offsets[m]);
  nets.weights.resize(m);
  tbb::parallel_for(tbb::blocked_range<NetID>(0, m, 256), [&](const auto& r) {
    for (NetID e = r.begin(); e != r.end(); ++e) {
      std::copy(mapped.begin() + offsets[e], mapped.begin() + offsets[e] + size[e],
                nets.pins.begin() + nets.offsets[e]);
      nets.weights[e] = hg.net_weight(e);
    }
  });
  mapped.clear();
  mapped.shrink_to_fit();
  NetList merged = merge_identical_nets(nets, 2);
  nets = NetList{};

  std::vector<Weight> weights(static_cast<std::size_t>(num_clusters) * ncon, 0);
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    for (int c = 0; c < ncon; ++c)
      weights[static_cast<std::size_t>(cluster[u]) * ncon + c] += hg.vertex_weight(u, c);
  return Hypergraph(num_clusters, std::move(merged.offsets), std::move(merged.pins),
                    std::move(merged.weights), ncon, std::move(weights));
}

} // namespace gnnpart::hg
