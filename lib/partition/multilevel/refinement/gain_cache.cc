#include "partition/multilevel/refinement/gain_cache.h"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace gnnpart::ml {
namespace {
constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
} // namespace

GainCache::GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k)
    : offsets_(static_cast<std::size_t>(graph.num_nodes()) + 1, 0), size_(graph.num_nodes(), 0) {
  const NodeID n = graph.num_nodes();
  for (NodeID u = 0; u < n; ++u)
    offsets_[u + 1] = offsets_[u] + std::min<EdgeID>(graph.degree(u), k);
  entries_.resize(offsets_.back());
  // Same entries in the same order as add() per edge (blocks in order of first appearance),
  // but a dense block -> slot index per thread makes it O(deg) instead of O(deg * entries).
  tbb::enumerable_thread_specific<std::vector<std::uint32_t>> slot_of(
      [k] { return std::vector<std::uint32_t>(k, kNoSlot); });
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 2048), [&](const auto& r) {
    std::vector<std::uint32_t>& slot = slot_of.local();
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      Entry* entry = entries_.data() + offsets_[u];
      std::uint32_t size = 0;
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const BlockID b = blocks[graph.edge_target(e)];
        const auto w = static_cast<std::int32_t>(graph.edge_weight(e));
        if (slot[b] == kNoSlot) {
          if (w == 0)
            continue;
          slot[b] = size;
          entry[size++] = {b, w};
        } else {
          entry[slot[b]].conn += w;
        }
      }
      for (std::uint32_t i = 0; i < size; ++i)
        slot[entry[i].block] = kNoSlot;
      size_[u] = size;
    }
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
