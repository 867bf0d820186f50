#include "partition/multilevel/refinement/gain_cache.h"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace gnnpart::ml {

GainCache::GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k)
    : offsets_(static_cast<std::size_t>(graph.num_nodes()) + 1, 0), size_(graph.num_nodes(), 0) {
  const NodeID n = graph.num_nodes();
  for (NodeID u = 0; u < n; ++u)
    offsets_[u + 1] = offsets_[u] + std::min<EdgeID>(graph.degree(u), k);
  entries_.resize(offsets_.back());
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 2048), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
        add(u, blocks[graph.edge_target(e)], static_cast<std::int32_t>(graph.edge_weight(e)));
  });
}

bool GainCache::supports(const CsrGraph& graph) {
  if (!graph.has_edge_weights())
    return true;
  Weight total = 0;
  for (Weight w : graph.edge_weights())
    total += w;
  return total < (Weight{1} << 31);
}

void GainCache::add(NodeID u, BlockID b, std::int32_t w) {
  Entry* e = entries_.data() + offsets_[u];
  for (std::uint32_t i = 0; i < size_[u]; ++i)
    if (e[i].block == b) {
      e[i].conn += w;
      if (e[i].conn == 0)
        e[i] = e[--size_[u]];
      return;
    }
  if (w != 0)
    e[size_[u]++] = {b, w};
}

void GainCache::moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to) {
  for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
    const NodeID v = graph.edge_target(e);
    const auto w = static_cast<std::int32_t>(graph.edge_weight(e));
    add(v, from, -w);
    add(v, to, w);
  }
}

} // namespace gnnpart::ml
