#pragma once
// Routing a large stream of items to their ranks in bounded rounds, and building a distributed
// graph from such a stream without ever holding it: the sender produces its items chunk by
// chunk (a block of a file, a range of vertices) and holds one chunk's send buffer; the
// receiver consumes each round's items as they arrive (counts them, or places them straight
// into the CSR), so no exchange keeps a per-item buffer.
#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "distributed/dist_graph.h"
#include "distributed/route_rounds.h"

namespace gnnpart::distributed {

// This rank's part of a graph under vtxdist with empty rows (offsets all zero: the row lengths
// are counted into offsets[u + 1] next).
inline DistGraph empty_rows(const Comm& comm, std::vector<std::uint64_t> vtxdist) {
  DistGraph g;
  g.rank = comm.rank;
  g.vtxdist = std::move(vtxdist);
  g.n_local = static_cast<NodeID>(g.vtxdist[comm.rank + 1] - g.vtxdist[comm.rank]);
  g.offsets.assign(static_cast<std::size_t>(g.n_local) + 1, 0);
  return g;
}

// Turns row lengths (offsets[u + 1] = the length of row u) into fill cursors (offsets[u + 1]
// = where row u begins, advanced by place_entry until it is where row u ends) and sizes the
// CSR arrays: adjacency, and edge_weights (T = Entry) or edge_weights32 (T = Entry32).
template <typename T> void start_rows(DistGraph& g) {
  for (NodeID u = 0; u < g.n_local; ++u)
    g.offsets[u + 1] += g.offsets[u];
  const EdgeID total = g.offsets[g.n_local];
  for (NodeID u = g.n_local; u > 0; --u)
    g.offsets[u] = g.offsets[u - 1];
  g.adjacency.resize(total);
  if constexpr (std::is_same_v<T, Entry>)
    g.edge_weights.resize(total);
  if constexpr (std::is_same_v<T, Entry32>)
    g.edge_weights32.resize(total);
}

// Places entry e (global ids; first: this rank's first vertex) at its row's cursor.
template <typename T> void place_entry(DistGraph& g, NodeID first, const T& e) {
  const EdgeID at = g.offsets[e.u - first + 1]++;
  g.adjacency[at] = e.v;
  if constexpr (std::is_same_v<T, Entry>)
    g.edge_weights[at] = e.w;
  if constexpr (std::is_same_v<T, Entry32>)
    g.edge_weights32[at] = e.w;
}

// Rows in blocks for placing a round's entries: a round brings entries of rows all over the
// rank's range, and placing them in arrival order touched offsets (8 B per row) and adjacency
// (4 B per entry) at random, one cache and TLB miss each: at P = 1 the entries' placement took
// 1.148 / 0.936 s of CPU for R-MAT 10^7 and 27.49 / 30.97 s for 10^8 (28.1x for 10x; 6.94 /
// 6.96 s with the blocks). Ordered by blocks of
// 2^shift rows (at most kRowBlocks blocks), the placements sweep both arrays upwards.
class RowBlocks {
public:
  static constexpr std::size_t kRowBlocks = std::size_t{1} << 14;
  explicit RowBlocks(NodeID rows) {
    while ((static_cast<std::size_t>(rows) >> shift_) >= kRowBlocks)
      ++shift_;
    counts_.resize((static_cast<std::size_t>(rows) >> shift_) + 2);
  }
  // Calls f(item) for every item, by increasing block of row(item) (local row ids), in arrival
  // order within a block (a stable counting sort through a scratch copy of the items): so every
  // row receives its entries in the same order as without the blocks. A round with fewer items
  // than blocks (small --chunk-items) is taken in arrival order: the counts would cost more.
  template <typename T, typename Row, typename F>
  void for_each(std::span<const T> items, std::vector<T>& scratch, Row&& row, F&& f) {
    if (items.size() < counts_.size()) {
      for (const T& item : items)
        f(item);
      return;
    }
    std::fill(counts_.begin(), counts_.end(), 0);
    for (const T& item : items)
      ++counts_[(static_cast<std::size_t>(row(item)) >> shift_) + 1];
    for (std::size_t b = 1; b < counts_.size(); ++b)
      counts_[b] += counts_[b - 1];
    scratch.resize(items.size());
    for (const T& item : items)
      scratch[counts_[static_cast<std::size_t>(row(item)) >> shift_]++] = item;
    for (const T& item : scratch)
      f(item);
  }

private:
  unsigned shift_ = 0;
  std::vector<std::uint32_t> counts_; // a round brings fewer than 2^31 items
};

// Builds this rank's part of the graph whose entries (T = Entry or Entry32 with weights, Edge
// without; global ids, any order, self loops and parallel entries allowed) every rank emits by
// chunks as route_rounds' emit does, each entry to the owner of its source under vtxdist. Two
// streams: the sources only (degrees), then the entries, placed straight into their CSR rows
// (the offsets serve as fill cursors); so the per-entry memory is the CSR itself (4 bytes per
// entry, 8 or 12 with weights). Collective.
template <typename T, typename Emit>
DistGraph build_dist_graph_streamed(const Comm& comm, std::vector<std::uint64_t> vtxdist,
                                    std::uint64_t chunks, Emit&& emit,
                                    std::vector<Weight> vertex_weights, Merge merge) {
  DistGraph g = empty_rows(comm, std::move(vtxdist));
  const NodeID first = g.first();
  // The degrees are counted in arrival order: ordering the sources by row block first (as the
  // entries are below) cost more than the misses it saved (session 25: 7.18 to 7.27 against
  // 3.89 to 4.74 ns per entry at R-MAT 10^7, P = 4; 8.33 / 8.69 against 5.28 / 5.26 at 3*10^7;
  // an 8 B counter per row is a smaller target than a row's entries).
  route_rounds<NodeID>(
      comm, chunks,
      [&](std::uint64_t c, auto&& send, RoutePass pass) {
        emit(
            c, [&](int rank, const T& e) { send(rank, e.u); }, pass);
      },
      [&](std::span<const NodeID> sources) {
        for (const NodeID u : sources)
          ++g.offsets[u - first + 1];
      },
      RoutePass::kCount);
  start_rows<T>(g);
  RowBlocks blocks(g.n_local);
  std::vector<T> entries_in_blocks;
  route_rounds<T>(comm, chunks, emit, [&](std::span<const T> entries) {
    blocks.for_each(
        entries, entries_in_blocks, [&](const T& e) { return e.u - first; },
        [&](const T& e) { place_entry(g, first, e); });
  });
  g.vertex_weights = std::move(vertex_weights);
  finish_dist_graph(comm, g, merge);
  return g;
}

} // namespace gnnpart::distributed
