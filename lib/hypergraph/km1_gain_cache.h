#pragma once
// Gain cache for the km1 objective (as Mt-KaHyPar's): for every vertex u
//   benefit(u)   = sum of w(e) over nets e of u with Phi(e, block(u)) = 1
//   incident(u)  = sum of w(e) over all nets of u
//   conn(u, t)   = sum of w(e) over nets e of u with Phi(e, t) >= 1
// so gain(u, t) = benefit(u) - (incident(u) - conn(u, t)). A move updates the cache in
// O(|e|) only for nets whose pin counts cross 0/1 in `from` or 1/2 in `to`.
#include <cstdint>
#include <span>
#include <vector>

#include "hypergraph/gain_computer.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart {

class Km1GainCache {
public:
  // Usable when every vertex's incident net weight fits into 32 bits.
  static bool applicable(const Hypergraph& hg);

  // Builds the cache of phg's current assignment (parallel).
  explicit Km1GainCache(const PartitionedHypergraph& phg);

  Weight gain(NodeID u, BlockID to) const {
    return benefit_[u] - incident_[u] + conn_[index(u, to)];
  }
  // Best feasible target among blocks other than block(u). Ties: lighter block, lower id.
  MoveCandidate best_move(const PartitionedHypergraph& phg, NodeID u,
                          std::span<const Weight> max_weights) const;

  // Moves u to `to` in phg, keeps the cache exact, and appends to `touched` the pins of updated
  // nets with at most max_touch_size pins (they may need re-rating). Returns the km1 decrease.
  Weight move(PartitionedHypergraph& phg, NodeID u, BlockID to, NodeID max_touch_size,
              std::vector<NetID>& touched_nets);

private:
  std::size_t index(NodeID u, BlockID b) const { return static_cast<std::size_t>(u) * k_ + b; }
  BlockID k_;
  std::vector<Weight> benefit_;
  std::vector<Weight> incident_;
  std::vector<std::int32_t> conn_;
};

} // namespace gnnpart
