#pragma once
// Gain cache for the km1 objective (as Mt-KaHyPar's): for every vertex u
//   benefit(u)   = sum of w(e) over nets e of u with Phi(e, block(u)) = 1
//   incident(u)  = sum of w(e) over all nets of u
//   conn(u, t)   = sum of w(e) over nets e of u with Phi(e, t) >= 1
// so gain(u, t) = benefit(u) - (incident(u) - conn(u, t)). A move updates the cache in
// O(|e|) only for nets whose pin counts cross 0/1 in `from` or 1/2 in `to`. conn is n x k
// entries, so they take 16 bits when every incident(u) is below 2^16 (unit nets: fewer than
// 65536 nets per vertex), else 32. One cache serves the FM calls of a whole multilevel run:
// rebuild() keeps its memory, so the n x k array is allocated and paged in once, not per call.
#include <cstdint>
#include <memory>
#include <span>
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
  // (and unusable) when some vertex's incident net weight does not fit into 32 bits.
  bool rebuild(const PartitionedHypergraph& phg);

  Weight gain(NodeID u, BlockID to) const {
    return benefit_[u] - incident_[u] + conn(index(u, to));
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
  // incident(u) and benefit(u) of every vertex; returns the largest incident(u).
  Weight compute_weights(const PartitionedHypergraph& phg);
  // conn in 16 or 32 bits, whichever holds `largest`.
  void compute_connections(const PartitionedHypergraph& phg, Weight largest);
  std::size_t index(NodeID u, BlockID b) const { return static_cast<std::size_t>(u) * k_ + b; }
  std::int32_t conn(std::size_t i) const { return wide_ ? conn32_[i] : conn16_[i]; }
  void add_conn(std::size_t i, std::int32_t w) {
    if (wide_)
      conn32_[i] += w;
    else
      conn16_[i] = static_cast<std::uint16_t>(conn16_[i] + w);
  }
  template <typename T>
  MoveCandidate best_move_in(const T* conn_of_u, const PartitionedHypergraph& phg, NodeID u,
                             std::span<const Weight> max_weights) const;

  BlockID k_ = 0;
  std::vector<Weight> benefit_;
  std::vector<Weight> incident_;
  bool wide_ = false;
  // n x k, used unless wide_ / if wide_; capacities in entries.
  std::unique_ptr<std::uint16_t[]> conn16_;
  std::unique_ptr<std::int32_t[]> conn32_;
  std::size_t capacity16_ = 0;
  std::size_t capacity32_ = 0;
};

} // namespace gnnpart::hg
