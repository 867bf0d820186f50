#pragma once
// Gain cache for edge-cut moves: for every vertex the connection weight to each block among its
// neighbours' blocks, in a row with capacity min(deg, k) (so memory is at most one entry per
// adjacency entry). A row shorter than k is a list of (block, conn) in use; a row of k entries
// (deg >= k) is dense, indexed by block, so high-degree vertices update in O(1).
// gain(u -> b) = conn(u, b) - conn(u, block(u)).
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

class GainCache {
public:
  // Rows as data, for views that keep a private copy of some rows (parallel FM's searches).
  static constexpr std::uint32_t kDense = ~std::uint32_t{0}; // size of a dense row
  struct Entry {
    BlockID block;
    std::int32_t conn;
  };

private:
  static constexpr BlockID kGroup = 8; // dense-row entries tested together (row_for_each)
  // The two entry layouts, as codecs: Entry, or one 32-bit word holding the block in its low
  // `shift` bits and conn above them.
  struct Wide {
    using Word = Entry;
    static BlockID block(Word w) { return w.block; }
    static std::int32_t conn(Word w) { return w.conn; }
    static Word make(BlockID b, std::int32_t c) { return {b, c}; }
    static void add(Word& w, std::int32_t c) { w.conn += c; }
    // Whether any of e[0, kGroup) has a nonzero conn.
    static bool any_conn(const Word* e) {
      std::int32_t x = 0;
      for (BlockID i = 0; i < kGroup; ++i)
        x |= e[i].conn;
      return x != 0;
    }
  };
  struct Packed {
    using Word = std::uint32_t;
    unsigned shift = 0;
    Word mask = 0;
    BlockID block(Word w) const { return w & mask; }
    std::int32_t conn(Word w) const { return static_cast<std::int32_t>(w >> shift); }
    Word make(BlockID b, std::int32_t c) const { return b | (static_cast<Word>(c) << shift); }
    // Modulo 2^32, so a negative c subtracts (conn never falls below 0).
    void add(Word& w, std::int32_t c) const { w += static_cast<Word>(c) << shift; }
    // Whether any of e[0, kGroup) has a nonzero conn: the words OR-ed two at a time, the block
    // bits of both halves masked off.
    bool any_conn(const Word* e) const {
      std::uint64_t x = 0;
      for (BlockID i = 0; i < kGroup; i += 2) {
        std::uint64_t pair;
        std::memcpy(&pair, e + i, sizeof pair);
        x |= pair;
      }
      return (x & ~(std::uint64_t{mask} << 32 | mask)) != 0;
    }
  };

  template <typename G> decltype(auto) visit(NodeID u, G&& g) const {
    if (packed_)
      return g(packed_codec_, static_cast<const Packed::Word*>(packed_.get() + offsets_[u]));
    return g(Wide{}, static_cast<const Wide::Word*>(entries_.get() + offsets_[u]));
  }
  template <typename G> decltype(auto) visit(NodeID u, G&& g) {
    if (packed_)
      return g(packed_codec_, packed_.get() + offsets_[u]);
    return g(Wide{}, entries_.get() + offsets_[u]);
  }

  template <typename C>
  static Weight row_conn(const C& c, const typename C::Word* e, std::uint32_t size, BlockID b) {
    if (size == kDense)
      return c.conn(e[b]);
    for (std::uint32_t i = 0; i < size; ++i)
      if (c.block(e[i]) == b)
        return c.conn(e[i]);
    return 0;
  }
  template <typename C, typename F>
  static void row_for_each(const C& c, const typename C::Word* e, std::uint32_t size, BlockID k,
                           F&& f) {
    if (size == kDense) {
      // A dense row's vertex has at least k neighbours, yet they lie in few of the k blocks
      // (uk-2007-05-100k, k = 128), so groups of kGroup entries without a connection are passed
      // over with one test. Same blocks, same order.
      BlockID b = 0;
      for (; b + kGroup <= k; b += kGroup)
        if (c.any_conn(e + b))
          for (BlockID i = b; i < b + kGroup; ++i)
            if (c.conn(e[i]) != 0)
              f(i, static_cast<Weight>(c.conn(e[i])));
      for (; b < k; ++b)
        if (c.conn(e[b]) != 0)
          f(b, static_cast<Weight>(c.conn(e[b])));
      return;
    }
    for (std::uint32_t i = 0; i < size; ++i)
      f(c.block(e[i]), static_cast<Weight>(c.conn(e[i])));
  }
  template <typename C>
  static void row_moved(const C& c, typename C::Word* e, std::uint32_t& size, BlockID from,
                        BlockID to, std::int32_t w);
  // Fills the rows; false if a vertex's weighted degree reaches conn_limit (the layout's bound).
  // With `superset` (see the constructor), a vertex outside it gets its one-block row from its
  // weighted degree, without reading its neighbours' blocks.
  template <typename C>
  bool build(const CsrGraph& graph, std::span<const BlockID> blocks, const C& c,
             typename C::Word* entries, Weight conn_limit, const std::vector<NodeID>* superset);

public:
  // `boundary_superset`, if given: the vertices, in increasing order, outside which no vertex is
  // joined by positive weight to another block than its own (METIS's projection: the members of
  // a coarse vertex whose neighbours all shared its block share their neighbours' blocks). The
  // rows are those of a build without it.
  GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k,
            const std::vector<NodeID>* boundary_superset = nullptr);

  BlockID k() const { return k_; }
  Weight conn(NodeID u, BlockID b) const {
    return visit(u, [&](const auto& c, const auto* e) { return row_conn(c, e, size_[u], b); });
  }
  // f(block, conn) for every block u is connected to.
  template <typename F> void for_each(NodeID u, F&& f) const {
    visit(u, [&](const auto& c, const auto* e) { row_for_each(c, e, size_[u], k_, f); });
  }
  // Whether u has a positive connection to a block other than `own` (u's block): with
  // positive edge weights, whether u has a neighbour in another block.
  bool boundary(NodeID u, BlockID own) const {
    return visit(u, [&](const auto& c, const auto* e) {
      if (size_[u] == kDense) {
        for (BlockID b = 0; b < k_; ++b)
          if (b != own && c.conn(e[b]) != 0)
            return true;
        return false;
      }
      return size_[u] > 1 || (size_[u] == 1 && c.block(e[0]) != own);
    });
  }
  // The vertices u with boundary(u, blocks[u]), in increasing order (blocks: the partition the
  // rows describe). With `superset` (as for the constructor) only its vertices are tested.
  // Otherwise only the last list's vertices and those moved through moved() since, with their
  // neighbours: no other vertex's row or block changed, so no other vertex entered the boundary.
  // Every vertex is tested for the first list, after forget_boundary(), and where that is the
  // cheaper. The same list either way; one caller at a time (it keeps the list it returns).
  std::vector<NodeID> boundary_list(const CsrGraph& graph, std::span<const BlockID> blocks,
                                    const std::vector<NodeID>* superset = nullptr) const;
  // The vertices u < n with on_boundary(u) in increasing order, among `superset` (increasing)
  // if given, else among all (in parallel).
  template <typename OnBoundary>
  static std::vector<NodeID> scan_boundary(NodeID n, OnBoundary&& on_boundary,
                                           const std::vector<NodeID>* superset);
  // Rows changed other than through moved() (neighbour_moved, from several threads): the next
  // boundary_list tests every vertex.
  void forget_boundary() { listed_ = false; }
  // Updates the neighbours of u after u moved from `from` to `to`.
  void moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to);
  // Updates v's row alone: a neighbour joined by weight w > 0 moved from -> to (from != to).
  // Not seen by boundary_list: callers call forget_boundary() first.
  void neighbour_moved(NodeID v, BlockID from, BlockID to, std::int32_t w) {
    visit(v, [&](const auto& c, auto* e) { row_moved(c, e, size_[v], from, to, w); });
  }

  // Whether conn values fit the 32-bit entries (total edge weight below 2^31) and the row
  // offsets their 32 bits (fewer than 2^32 adjacency entries, an upper bound on the rows'
  // entries).
  static bool supports(const CsrGraph& graph) { return weight_facts(graph).supports; }
  // supports(), and whether every edge weight is positive (unit weights are), from one pass
  // over the edge weights.
  struct WeightFacts {
    bool supports;
    bool positive;
  };
  static WeightFacts weight_facts(const CsrGraph& graph);

  // Rows as data, for views that keep a private copy of some rows (parallel FM's searches).
  // Appends u's row to `out` as (block, conn) entries: its capacity min(deg(u), k) entries.
  void append_row(NodeID u, std::vector<Entry>& out) const;
  std::uint32_t row_size(NodeID u) const { return size_[u]; }
  // Whether the rows are packed into 4-byte entries (see packed_).
  bool packed() const { return packed_ != nullptr; }
  // conn of block b in a row of Entry.
  static Weight row_conn(const Entry* e, std::uint32_t size, BlockID b) {
    return row_conn(Wide{}, e, size, b);
  }
  template <typename F>
  static void row_for_each(const Entry* e, std::uint32_t size, BlockID k, F&& f) {
    row_for_each(Wide{}, e, size, k, f);
  }
  // A neighbour joined by weight w > 0 moved from -> to (from != to).
  static void row_moved(Entry* e, std::uint32_t& size, BlockID from, BlockID to, std::int32_t w) {
    row_moved(Wide{}, e, size, from, to, w);
  }

private:
  // Arrays without value-initialisation: the constructor writes every element in parallel, so
  // their pages are first touched (and zeroed by the kernel) by all threads, not by one.
  BlockID k_;
  // n + 1; 4 bytes, not an EdgeID's 8 (supports()): 1.3 MB of the column-net model's graph
  // start on cnr-2000 and dblp-2010, at its memory peak (issue #20).
  std::unique_ptr<std::uint32_t[]> offsets_;
  std::unique_ptr<std::uint32_t[]> size_; // n: entries in use, or kDense
  // The rows' entries (offsets_[n]), one of the two: packed_ (4 bytes an entry) where a block id
  // below k and every vertex's weighted degree fit 32 bits together (k = 128: 7 + 25 bits), else
  // entries_ (8 bytes). Packed, cnr-2000's rows at k = 128 (3,971,621 entries) take 15.9 MB
  // less, at the graph start's memory peak in the column-net model (issue #20).
  Packed packed_codec_;
  std::unique_ptr<Packed::Word[]> packed_;
  std::unique_ptr<Entry[]> entries_;
  // boundary_list's memory, one bit a vertex: the last list, and the vertices moved since (set
  // by moved() while listed_). Not part of the rows, hence mutable.
  mutable bool listed_ = false;
  mutable std::vector<std::uint64_t> listed_bits_;
  mutable std::vector<std::uint64_t> moved_bits_;
};

template <typename OnBoundary>
std::vector<NodeID> GainCache::scan_boundary(NodeID n, OnBoundary&& on_boundary,
                                             const std::vector<NodeID>* superset) {
  constexpr NodeID kGrain = 4096;
  std::vector<NodeID> list;
  if (superset) {
    for (const NodeID u : *superset)
      if (on_boundary(u))
        list.push_back(u);
  } else if (n <= kGrain) {
    // One grain: the loop oneTBB would run as one task, without the flags or the task.
    for (NodeID u = 0; u < n; ++u)
      if (on_boundary(u))
        list.push_back(u);
  } else {
    std::vector<std::uint8_t> is_boundary(n, 0);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, kGrain), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        is_boundary[u] = on_boundary(u);
    });
    for (NodeID u = 0; u < n; ++u)
      if (is_boundary[u])
        list.push_back(u);
  }
  return list;
}

} // namespace gnnpart::ml
