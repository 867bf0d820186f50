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

GainCache::GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k,
                     const std::vector<NodeID>* boundary_superset)
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
    if (build(graph, blocks, packed_codec_, packed_.get(), Weight{1} << (32 - shift),
              boundary_superset))
      return;
    packed_.reset();
  }
  entries_ = std::make_unique_for_overwrite<Entry[]>(total);
  // supports(): total below 2^31
  build(graph, blocks, Wide{}, entries_.get(), Weight{1} << 31, boundary_superset);
}

template <typename C>
bool GainCache::build(const CsrGraph& graph, std::span<const BlockID> blocks, const C& c,
                      typename C::Word* entries, Weight conn_limit,
                      const std::vector<NodeID>* superset) {
  const NodeID n = graph.num_nodes();
  const BlockID k = k_;
  const EdgeID* const offsets = graph.offsets().data();
  const Weight* const edge_weights =
      graph.has_edge_weights() ? graph.edge_weights().data() : nullptr;
  // Blocks in order of first appearance among the neighbours; a dense block -> slot index per
  // thread makes it O(deg) instead of O(deg * entries).
  tbb::enumerable_thread_specific<std::vector<std::uint32_t>> slot_of(
      [k] { return std::vector<std::uint32_t>(k, kNoSlot); });
  std::atomic<bool> fits{true};
  const BlockID* const block_of = blocks.data();
  std::uint32_t* const sizes = size_.get();
  const std::uint32_t* const row_at = offsets_.get();
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 2048), [&](const auto& r) {
    std::vector<std::uint32_t>& slot = slot_of.local();
    Weight max_degree = 0; // weighted
    // Vertices of the superset, and all without one: blocks in order of first appearance.
    const auto full_row = [&](NodeID u) {
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
        return;
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
    };
    // Vertices [from, to) outside the superset: every neighbour joined by positive weight is in
    // u's block, so the row is that block with u's weighted degree (zero-weight arcs add
    // nothing to any entry); the neighbours' blocks are not read.
    const auto interior_rows = [&](NodeID from, NodeID to) {
      // The arrays in locals: read through the closure, every store into a row reloaded them.
      const EdgeID* const off = offsets;
      const Weight* const ew = edge_weights;
      const BlockID* const own_block = block_of;
      std::uint32_t* const row_size = sizes;
      const std::uint32_t* const row_offset = row_at;
      typename C::Word* const words = entries;
      const C codec = c;
      const BlockID blocks_k = k;
      Weight max_seen = max_degree;
      for (NodeID u = from; u < to; ++u) {
        const EdgeID first = off[u], end = off[u + 1];
        Weight degree = static_cast<Weight>(end - first);
        if (ew) {
          degree = 0;
          for (EdgeID e = first; e < end; ++e)
            degree += ew[e];
        }
        max_seen = std::max(max_seen, degree);
        typename C::Word* const entry = words + row_offset[u];
        const BlockID own = own_block[u];
        if (end - first >= blocks_k) {
          for (BlockID b = 0; b < blocks_k; ++b)
            entry[b] = codec.make(b, 0);
          codec.add(entry[own], static_cast<std::int32_t>(degree));
          row_size[u] = kDense;
          continue;
        }
        const auto capacity = static_cast<std::uint32_t>(end - first);
        const std::uint32_t size = degree > 0 ? 1 : 0;
        if (size == 1)
          entry[0] = codec.make(own, static_cast<std::int32_t>(degree));
        std::fill(entry + size, entry + capacity, codec.make(0, 0));
        row_size[u] = size;
      }
      max_degree = max_seen;
    };
    if (superset == nullptr) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        full_row(u);
    } else {
      const NodeID* const last = superset->data() + superset->size();
      NodeID u = r.begin();
      for (const NodeID* next = std::lower_bound(superset->data(), last, r.begin());
           next != last && *next < r.end(); ++next) {
        interior_rows(u, *next);
        full_row(*next);
        u = *next + 1;
      }
      interior_rows(u, r.end());
    }
    if (max_degree >= conn_limit)
      fits.store(false, std::memory_order_relaxed);
  });
  return fits.load();
}

std::vector<NodeID> GainCache::boundary_list(const CsrGraph& graph, std::span<const BlockID> blocks,
                                             const std::vector<NodeID>* superset) const {
  const NodeID n = graph.num_nodes();
  const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
  const auto on_boundary = [&](NodeID u) { return boundary(u, blocks[u]); };
  const auto for_each_bit = [](std::vector<std::uint64_t>& bits, auto&& f) {
    for (std::size_t w = 0; w < bits.size(); ++w)
      for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
        f(static_cast<NodeID>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
  };
  std::vector<NodeID> list;
  if (superset == nullptr && listed_) {
    // The touched vertices cost their arcs; past half the vertices the plain scan is cheaper.
    EdgeID work = 0;
    for_each_bit(moved_bits_, [&](NodeID u) { work += graph.degree(u) + 1; });
    if (work < n / 2) {
      // Only the touched vertices (moved, or next to a move) are tested; the others of the last
      // list are still on the boundary.
      std::vector<std::uint64_t> touched(words, 0);
      std::uint64_t* const mark_bits = touched.data();
      const auto mark = [mark_bits](NodeID v) {
        mark_bits[v >> 6] |= std::uint64_t{1} << (v & 63);
      };
      for_each_bit(moved_bits_, [&](NodeID u) {
        mark(u);
        for (const NodeID v : graph.neighbors(u))
          mark(v);
      });
      std::fill(moved_bits_.begin(), moved_bits_.end(), 0);
      std::uint64_t* const listed = listed_bits_.data();
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t now = listed[w] & ~mark_bits[w];
        for (std::uint64_t word = mark_bits[w]; word != 0; word &= word - 1) {
          const int bit = std::countr_zero(word);
          if (on_boundary(static_cast<NodeID>(w * 64 + static_cast<std::size_t>(bit))))
            now |= std::uint64_t{1} << bit;
        }
        listed[w] = now;
        for (; now != 0; now &= now - 1)
          list.push_back(
              static_cast<NodeID>(w * 64 + static_cast<std::size_t>(std::countr_zero(now))));
      }
      return list;
    }
  }
  list = scan_boundary(n, on_boundary, superset);
  listed_bits_.assign(words, 0);
  moved_bits_.assign(words, 0);
  for (const NodeID u : list)
    listed_bits_[u >> 6] |= std::uint64_t{1} << (u & 63);
  listed_ = true;
  return list;
}

void GainCache::append_row(NodeID u, std::vector<Entry>& out) const {
  const std::uint32_t capacity = offsets_[u + 1] - offsets_[u];
  visit(u, [&](const auto& c, const auto* e) {
    for (std::uint32_t i = 0; i < capacity; ++i)
      out.push_back({c.block(e[i]), c.conn(e[i])});
  });
}

GainCache::WeightFacts GainCache::weight_facts(const CsrGraph& graph) {
  if (!graph.has_edge_weights())
    return {graph.num_directed_edges() < (EdgeID{1} << 32), true};
  // The sign bits of w and w - 1 OR-ed over the weights: both clear exactly when w > 0. Adds and
  // ORs only, so the loop vectorises like the sum (a running minimum of 64-bit values did not,
  // without SSE4.2).
  struct SumSigns {
    Weight sum = 0;
    std::uint64_t signs = 0;
  };
  const std::span<const Weight> weights = graph.edge_weights();
  const SumSigns total = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, weights.size(), 1 << 14), SumSigns{},
      [&](const auto& r, SumSigns acc) {
        for (std::size_t e = r.begin(); e != r.end(); ++e) {
          const auto w = static_cast<std::uint64_t>(weights[e]);
          acc.sum += weights[e];
          acc.signs |= w | (w - 1);
        }
        return acc;
      },
      [](SumSigns a, SumSigns b) {
        return SumSigns{a.sum + b.sum, a.signs | b.signs};
      });
  return {graph.num_directed_edges() < (EdgeID{1} << 32) && total.sum < (Weight{1} << 31),
          (total.signs >> 63) == 0};
}

namespace {
// row_moved's body, inlined into moved()'s loop over the mover's neighbours (a call per
// neighbour cost more than most short rows' scans).
template <typename C>
[[gnu::always_inline]] inline void move_in_row(const C& c, typename C::Word* e, std::uint32_t& size,
                                               BlockID from, BlockID to, std::int32_t w) {
  if (size == GainCache::kDense) {
    c.add(e[from], -w);
    c.add(e[to], w);
    return;
  }
  // `from` has an entry (the neighbour was there); it is dropped at zero before `to` is appended,
  // so the row never exceeds its capacity min(deg, k). The scan stops at the first of the two
  // without a bound (from's entry ends it), then looks for the other one alone: two tests an
  // entry instead of a loop that tested both and whether either was still missing.
  const std::uint32_t old_size = size;
  std::uint32_t i = 0;
  while (c.block(e[i]) != from && c.block(e[i]) != to)
    ++i;
  std::uint32_t at_from = i, at_to = size;
  if (c.block(e[i]) == from) {
    for (std::uint32_t j = i + 1; j < size; ++j)
      if (c.block(e[j]) == to) {
        at_to = j;
        break;
      }
  } else {
    at_to = i;
    do
      ++at_from;
    while (c.block(e[at_from]) != from);
  }
  if (at_to != size)
    c.add(e[at_to], w);
  c.add(e[at_from], -w);
  if (c.conn(e[at_from]) == 0)
    e[at_from] = e[--size];
  if (at_to == old_size)
    e[size++] = c.make(to, w);
}
} // namespace

template <typename C>
void GainCache::row_moved(const C& c, typename C::Word* e, std::uint32_t& size, BlockID from,
                          BlockID to, std::int32_t w) {
  move_in_row(c, e, size, from, to, w);
}

// For neighbour_moved and the static Entry overload (the header).
template void GainCache::row_moved(const Wide&, Wide::Word*, std::uint32_t&, BlockID, BlockID,
                                   std::int32_t);
template void GainCache::row_moved(const Packed&, Packed::Word*, std::uint32_t&, BlockID, BlockID,
                                   std::int32_t);

void GainCache::moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to) {
  if (from == to)
    return;
  if (listed_)
    moved_bits_[u >> 6] |= std::uint64_t{1} << (u & 63);
  // The layout is chosen once for the whole adjacency.
  const auto update = [&](const auto& c, auto* entries) {
    for (EdgeID edge = graph.first_edge(u); edge < graph.last_edge(u); ++edge) {
      const auto w = static_cast<std::int32_t>(graph.edge_weight(edge));
      if (w == 0)
        continue;
      const NodeID v = graph.edge_target(edge);
      move_in_row(c, entries + offsets_[v], size_[v], from, to, w);
    }
  };
  if (packed_)
    update(packed_codec_, packed_.get());
  else
    update(Wide{}, entries_.get());
}

} // namespace gnnpart::ml
