#include "partition/multilevel/refinement/gain_cache.h"

#include <algorithm>
#include <atomic>
#include <bit>

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
  const auto shift = static_cast<unsigned>(std::bit_width(k > 0 ? k - 1 : 0));
  // Packed where every vertex's weighted degree (a bound on its row's conns) fits above the
  // block bits; the build finds out, and a vertex above that rebuilds the rows wide.
  if (shift < 32) {
    packed_codec_ = {shift, (Packed::Word{1} << shift) - 1};
    packed_ = std::make_unique_for_overwrite<Packed::Word[]>(total);
    if (build(graph, blocks, packed_codec_, packed_.get(), Weight{1} << (32 - shift)))
      return;
    packed_.reset();
  }
  entries_ = std::make_unique_for_overwrite<Entry[]>(total);
  build(graph, blocks, Wide{}, entries_.get(), Weight{1} << 31); // supports(): total below 2^31
}

template <typename C>
bool GainCache::build(const CsrGraph& graph, std::span<const BlockID> blocks, const C& c,
                      typename C::Word* entries, Weight conn_limit) {
  const NodeID n = graph.num_nodes();
  const BlockID k = k_;
  // Blocks in order of first appearance among the neighbours; a dense block -> slot index per
  // thread makes it O(deg) instead of O(deg * entries).
  tbb::enumerable_thread_specific<std::vector<std::uint32_t>> slot_of(
      [k] { return std::vector<std::uint32_t>(k, kNoSlot); });
  std::atomic<bool> fits{true};
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 2048), [&](const auto& r) {
    std::vector<std::uint32_t>& slot = slot_of.local();
    Weight max_degree = 0; // weighted
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      typename C::Word* entry = entries + offsets_[u];
      Weight degree = 0;
      if (graph.degree(u) >= k) {
        for (BlockID b = 0; b < k; ++b)
          entry[b] = c.make(b, 0);
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
          const Weight w = graph.edge_weight(e);
          degree += w;
          c.add(entry[blocks[graph.edge_target(e)]], static_cast<std::int32_t>(w));
        }
        max_degree = std::max(max_degree, degree);
        size_[u] = kDense;
        continue;
      }
      std::uint32_t size = 0;
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const BlockID b = blocks[graph.edge_target(e)];
        const auto w = static_cast<std::int32_t>(graph.edge_weight(e));
        degree += w;
        if (slot[b] == kNoSlot) {
          if (w == 0)
            continue;
          slot[b] = size;
          entry[size++] = c.make(b, w);
        } else {
          c.add(entry[slot[b]], w);
        }
      }
      for (std::uint32_t i = 0; i < size; ++i)
        slot[c.block(entry[i])] = kNoSlot;
      // The unused tail of the row is defined too (parallel FM copies whole rows).
      std::fill(entry + size, entry + (offsets_[u + 1] - offsets_[u]), c.make(0, 0));
      size_[u] = size;
      max_degree = std::max(max_degree, degree);
    }
    if (max_degree >= conn_limit)
      fits.store(false, std::memory_order_relaxed);
  });
  return fits.load();
}

void GainCache::append_row(NodeID u, std::vector<Entry>& out) const {
  const std::uint32_t capacity = offsets_[u + 1] - offsets_[u];
  visit(u, [&](const auto& c, const auto* e) {
    for (std::uint32_t i = 0; i < capacity; ++i)
      out.push_back({c.block(e[i]), c.conn(e[i])});
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

template <typename C>
void GainCache::row_moved(const C& c, typename C::Word* e, std::uint32_t& size, BlockID from,
                          BlockID to, std::int32_t w) {
  if (size == kDense) {
    c.add(e[from], -w);
    c.add(e[to], w);
    return;
  }
  // One scan finds both entries. `from` has one (the neighbour was there); it is dropped at zero
  // before `to` is appended, so the row never exceeds its capacity min(deg, k).
  const std::uint32_t old_size = size;
  std::uint32_t at_from = size, at_to = size;
  for (std::uint32_t i = 0; i < size && (at_from == size || at_to == size); ++i) {
    const BlockID b = c.block(e[i]);
    if (b == from)
      at_from = i;
    else if (b == to)
      at_to = i;
  }
  if (at_to != size)
    c.add(e[at_to], w);
  c.add(e[at_from], -w);
  if (c.conn(e[at_from]) == 0)
    e[at_from] = e[--size];
  if (at_to == old_size)
    e[size++] = c.make(to, w);
}

// For neighbour_moved and the static Entry overload (the header).
template void GainCache::row_moved(const Wide&, Wide::Word*, std::uint32_t&, BlockID, BlockID,
                                   std::int32_t);
template void GainCache::row_moved(const Packed&, Packed::Word*, std::uint32_t&, BlockID, BlockID,
                                   std::int32_t);

void GainCache::moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to) {
  if (from == to)
    return;
  // The layout is chosen once for the whole adjacency.
  const auto update = [&](const auto& c, auto* entries) {
    for (EdgeID edge = graph.first_edge(u); edge < graph.last_edge(u); ++edge) {
      const auto w = static_cast<std::int32_t>(graph.edge_weight(edge));
      if (w == 0)
        continue;
      const NodeID v = graph.edge_target(edge);
      row_moved(c, entries + offsets_[v], size_[v], from, to, w);
    }
  };
  if (packed_)
    update(packed_codec_, packed_.get());
  else
    update(Wide{}, entries_.get());
}

} // namespace gnnpart::ml
