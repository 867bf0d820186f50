#include "partition/multilevel/refinement/gain_cache.h"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/prefix_sum.h"

namespace gnnpart::ml {
namespace {
constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
} // namespace

GainCache::GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k)
    : k_(k), offsets_(std::make_unique_for_overwrite<std::uint32_t[]>(
                 static_cast<std::size_t>(graph.num_nodes()) + 1)),
      size_(std::make_unique_for_overwrite<std::uint32_t[]>(graph.num_nodes())) {
  const NodeID n = graph.num_nodes();
  const std::uint32_t total = exclusive_prefix_sum(
      n,
      [&](std::size_t u) {
        return std::min<std::uint32_t>(graph.degree(static_cast<NodeID>(u)), k);
      },
      std::span<std::uint32_t>(offsets_.get(), static_cast<std::size_t>(n) + 1));
  entries_ = std::make_unique_for_overwrite<Entry[]>(total);
  // Blocks in order of first appearance among the neighbours; a dense block -> slot index per
  // thread makes it O(deg) instead of O(deg * entries).
  tbb::enumerable_thread_specific<std::vector<std::uint32_t>> slot_of(
      [k] { return std::vector<std::uint32_t>(k, kNoSlot); });
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 2048), [&](const auto& r) {
    std::vector<std::uint32_t>& slot = slot_of.local();
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      Entry* entry = entries_.get() + offsets_[u];
      if (graph.degree(u) >= k) {
        for (BlockID b = 0; b < k; ++b)
          entry[b] = {b, 0};
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
          entry[blocks[graph.edge_target(e)]].conn +=
              static_cast<std::int32_t>(graph.edge_weight(e));
        size_[u] = kDense;
        continue;
      }
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
      // The unused tail of the row is defined too (parallel FM copies whole rows).
      std::fill(entry + size, entry + (offsets_[u + 1] - offsets_[u]), Entry{0, 0});
      size_[u] = size;
    }
  });
}

bool GainCache::supports(const CsrGraph& graph) {
  if (graph.num_directed_edges() >= (EdgeID{1} << 32))
    return false;
  if (!graph.has_edge_weights())
    return true;
  const std::span<const Weight> weights = graph.edge_weights();
  const Weight total = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, weights.size(), 1 << 14), Weight{0},
      [&](const auto& r, Weight sum) {
        for (std::size_t e = r.begin(); e != r.end(); ++e)
          sum += weights[e];
        return sum;
      },
      [](Weight a, Weight b) { return a + b; });
  return total < (Weight{1} << 31);
}

void GainCache::row_moved(Entry* e, std::uint32_t& size, BlockID from, BlockID to, std::int32_t w) {
  if (size == kDense) {
    e[from].conn -= w;
    e[to].conn += w;
    return;
  }
  // One scan finds both entries. `from` has one (the neighbour was there); it is dropped at zero
  // before `to` is appended, so the row never exceeds its capacity min(deg, k).
  const std::uint32_t old_size = size;
  std::uint32_t at_from = size, at_to = size;
  for (std::uint32_t i = 0; i < size && (at_from == size || at_to == size); ++i) {
    if (e[i].block == from)
      at_from = i;
    else if (e[i].block == to)
      at_to = i;
  }
  if (at_to != size)
    e[at_to].conn += w;
  if ((e[at_from].conn -= w) == 0)
    e[at_from] = e[--size];
  if (at_to == old_size)
    e[size++] = {to, w};
}

void GainCache::moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to) {
  if (from == to)
    return;
  for (EdgeID edge = graph.first_edge(u); edge < graph.last_edge(u); ++edge) {
    const auto w = static_cast<std::int32_t>(graph.edge_weight(edge));
    if (w == 0)
      continue;
    const NodeID v = graph.edge_target(edge);
    row_moved(entries_.get() + offsets_[v], size_[v], from, to, w);
  }
}

} // namespace gnnpart::ml
