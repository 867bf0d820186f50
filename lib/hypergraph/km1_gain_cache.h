#pragma once
// Gain cache for the km1 objective (as Mt-KaHyPar's): for every vertex u
//   benefit(u)   = sum of w(e) over nets e of u with Phi(e, block(u)) = 1
//   incident(u)  = sum of w(e) over all nets of u
//   conn(u, t)   = sum of w(e) over nets e of u with Phi(e, t) >= 1
// so gain(u, t) = benefit(u) - (incident(u) - conn(u, t)). A move updates the cache in
// O(|e|) only for nets whose pin counts cross 0/1 in `from` or 1/2 in `to`.
// conn is a row of k entries per vertex, as narrow as the vertex allows: conn(u, t) is at most
// incident(u), so u's row takes 4 bits per entry when incident(u) < 2^4 (unit nets: fewer than
// 16 nets, most vertices of a sparse graph's column-net model), 8 bits below 2^8, 16 below
// 2^16, else 32.
// Rows of one width lie in one array, in vertex order; u's record holds its row number.
// One cache serves the FM calls of a whole uncoarsening: rebuild() keeps its memory, so the rows
// are allocated and paged in once per cycle, not per call; release() gives them back before
// the next cycle coarsens.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "hypergraph/gain_computer.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

class Km1GainCache {
public:
  Km1GainCache() = default;
  // The cache of phg's current assignment, for hypergraphs known to fit (unit-weight nets of a
  // bisection).
  explicit Km1GainCache(const PartitionedHypergraph& phg);

  // Makes this the cache of phg's current assignment (parallel), reusing the memory. False
  // (and unusable) when some vertex's incident net weight does not fit into 31 bits.
  bool rebuild(const PartitionedHypergraph& phg);
  // Frees the memory (between multilevel cycles: the next coarsening does not need it).
  void release();

  Weight gain(NodeID u, BlockID to) const {
    const VertexGains& g = vertex_[u];
    return Weight{g.benefit} - g.incident + conn(g, to);
  }
  // Best feasible target among blocks other than block(u). Ties: lighter block, lower id.
  MoveCandidate best_move(const PartitionedHypergraph& phg, NodeID u,
                          std::span<const Weight> max_weights) const;

  // The same, among `candidates` only (other than block(u), with conn(u, t) > 0).
  MoveCandidate best_of(const PartitionedHypergraph& phg, NodeID u,
                        std::span<const BlockID> candidates,
                        std::span<const Weight> max_weights) const;

  // Moves u to `to` in phg, keeps the cache exact, and appends to `touched` the pins of updated
  // nets with at most max_touch_size pins (they may need re-rating). Returns the km1 decrease.
  Weight move(PartitionedHypergraph& phg, NodeID u, BlockID to, NodeID max_touch_size,
              std::vector<NetID>& touched_nets);

private:
  // Per vertex in one record: a gain reads all three.
  struct VertexGains {
    std::int32_t benefit = 0;
    std::int32_t incident = 0;
    std::uint32_t row = 0; // among the rows of its width
  };
  // Rows of one entry type; the capacity (in entries) is kept between rebuilds.
  template <typename T> struct Rows {
    std::unique_ptr<T[]> data;
    std::size_t capacity = 0;
    T* reserve(std::size_t entries);
  };
  // A row of entries of type T.
  template <typename T> struct PlainRow {
    T* p;
    std::int32_t get(BlockID b) const { return static_cast<std::int32_t>(p[b]); }
    void add(BlockID b, std::int32_t w) const { p[b] = static_cast<T>(p[b] + w); }
    void clear(BlockID k) const { std::fill_n(p, k, T{0}); }
  };
  // A row of 4-bit entries, two per byte: block b in byte b / 2, the high half if b is odd.
  struct NibbleRow {
    std::uint8_t* p;
    std::int32_t get(BlockID b) const { return (p[b / 2] >> (b % 2 * 4)) & 15; }
    void add(BlockID b, std::int32_t w) const {
      const unsigned shift = b % 2 * 4;
      const auto value = static_cast<unsigned>(get(b) + w);
      p[b / 2] = static_cast<std::uint8_t>((p[b / 2] & ~(15u << shift)) | (value << shift));
    }
    void clear(BlockID k) const { std::fill_n(p, (k + 1) / 2, std::uint8_t{0}); }
  };
  enum class Width { k4, k8, k16, k32 };
  static Width width(std::int32_t incident) {
    return incident < (1 << 4)    ? Width::k4
           : incident < (1 << 8)  ? Width::k8
           : incident < (1 << 16) ? Width::k16
                                  : Width::k32;
  }
  std::size_t nibble_row_bytes() const { return (static_cast<std::size_t>(k_) + 1) / 2; }

  // incident(u) and benefit(u) of every vertex; returns the largest incident(u).
  Weight compute_weights(const PartitionedHypergraph& phg);
  // Row numbers and rows of every vertex.
  void compute_connections(const PartitionedHypergraph& phg);
  // f(g's row: a NibbleRow or PlainRow<T>, writable through a const cache: unique_ptr::get).
  template <typename F> decltype(auto) with_row(const VertexGains& g, F&& f) const {
    const std::size_t row = g.row;
    switch (width(g.incident)) {
    case Width::k4:
      return f(NibbleRow{rows4_.data.get() + row * nibble_row_bytes()});
    case Width::k8:
      return f(PlainRow<std::uint8_t>{rows8_.data.get() + row * k_});
    case Width::k16:
      return f(PlainRow<std::uint16_t>{rows16_.data.get() + row * k_});
    default:
      return f(PlainRow<std::int32_t>{rows32_.data.get() + row * k_});
    }
  }
  std::int32_t conn(const VertexGains& g, BlockID b) const {
    return with_row(g, [b](auto row) { return row.get(b); });
  }
  void add_conn(NodeID u, BlockID b, std::int32_t w) {
    with_row(vertex_[u], [b, w](auto row) { row.add(b, w); });
  }
  template <typename Row>
  MoveCandidate best_move_in(Row conn_of_u, const PartitionedHypergraph& phg, NodeID u,
                             std::span<const Weight> max_weights) const;

  BlockID k_ = 0;
  std::vector<VertexGains> vertex_;
  Rows<std::uint8_t> rows4_; // two entries per byte
  Rows<std::uint8_t> rows8_;
  Rows<std::uint16_t> rows16_;
  Rows<std::int32_t> rows32_;
};

} // namespace gnnpart::hg
