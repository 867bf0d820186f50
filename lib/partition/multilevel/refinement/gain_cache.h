#pragma once
// Gain cache for edge-cut moves: for every vertex the connection weight to each block among its
// neighbours' blocks, in a row with capacity min(deg, k) (so memory is at most one entry per
// adjacency entry). A row shorter than k is a list of (block, conn) in use; a row of k entries
// (deg >= k) is dense, indexed by block, so high-degree vertices update in O(1).
// gain(u -> b) = conn(u, b) - conn(u, block(u)).
#include <cstdint>
#include <memory>
#include <span>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

class GainCache {
public:
  GainCache(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k);

  BlockID k() const { return k_; }
  Weight conn(NodeID u, BlockID b) const {
    return row_conn(entries_.get() + offsets_[u], size_[u], b);
  }
  // f(block, conn) for every block u is connected to.
  template <typename F> void for_each(NodeID u, F&& f) const {
    row_for_each(entries_.get() + offsets_[u], size_[u], k_, f);
  }
  // Whether u has a positive connection to a block other than `own` (u's block): with
  // positive edge weights, whether u has a neighbour in another block.
  bool boundary(NodeID u, BlockID own) const {
    const Entry* e = entries_.get() + offsets_[u];
    if (size_[u] == kDense) {
      for (BlockID b = 0; b < k_; ++b)
        if (b != own && e[b].conn != 0)
          return true;
      return false;
    }
    return size_[u] > 1 || (size_[u] == 1 && e[0].block != own);
  }
  // Updates the neighbours of u after u moved from `from` to `to`.
  void moved(const CsrGraph& graph, NodeID u, BlockID from, BlockID to);
  // Updates v's row alone: a neighbour joined by weight w > 0 moved from -> to (from != to).
  void neighbour_moved(NodeID v, BlockID from, BlockID to, std::int32_t w) {
    row_moved(entries_.get() + offsets_[v], size_[v], from, to, w);
  }

  // Whether conn values fit the 32-bit entries (total edge weight below 2^31) and the row
  // offsets their 32 bits (fewer than 2^32 adjacency entries, an upper bound on the rows'
  // entries).
  static bool supports(const CsrGraph& graph);

  // Rows as data, for views that keep a private copy of some rows (parallel FM's searches).
  static constexpr std::uint32_t kDense = ~std::uint32_t{0}; // size of a dense row
  struct Entry {
    BlockID block;
    std::int32_t conn;
  };
  // u's row: its capacity min(deg(u), k) entries, and its size (entries in use) or kDense.
  std::span<const Entry> row(NodeID u) const {
    return {entries_.get() + offsets_[u], static_cast<std::size_t>(offsets_[u + 1] - offsets_[u])};
  }
  std::uint32_t row_size(NodeID u) const { return size_[u]; }
  // conn of block b in a row.
  static Weight row_conn(const Entry* e, std::uint32_t size, BlockID b) {
    if (size == kDense)
      return e[b].conn;
    for (std::uint32_t i = 0; i < size; ++i)
      if (e[i].block == b)
        return e[i].conn;
    return 0;
  }
  template <typename F>
  static void row_for_each(const Entry* e, std::uint32_t size, BlockID k, F&& f) {
    if (size == kDense) {
      for (BlockID b = 0; b < k; ++b)
        if (e[b].conn != 0)
          f(b, static_cast<Weight>(e[b].conn));
      return;
    }
    for (std::uint32_t i = 0; i < size; ++i)
      f(e[i].block, static_cast<Weight>(e[i].conn));
  }
  // A neighbour joined by weight w > 0 moved from -> to (from != to).
  static void row_moved(Entry* e, std::uint32_t& size, BlockID from, BlockID to, std::int32_t w);

private:
  // Arrays without value-initialisation: the constructor writes every element in parallel, so
  // their pages are first touched (and zeroed by the kernel) by all threads, not by one.
  BlockID k_;
  // n + 1; 4 bytes, not an EdgeID's 8 (supports()): 1.3 MB of the column-net model's graph
  // start on cnr-2000 and dblp-2010, at its memory peak (issue #20).
  std::unique_ptr<std::uint32_t[]> offsets_;
  std::unique_ptr<std::uint32_t[]> size_; // n: entries in use, or kDense
  std::unique_ptr<Entry[]> entries_;      // offsets_[n]
};

} // namespace gnnpart::ml
