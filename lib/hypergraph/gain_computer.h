#pragma once
// Exact move gains of one vertex to every block, for km1, cut and soed, computed from the pin
// counts and connectivity sets of its nets:
//   km1:  gain(u, t) = sum_{e: Phi(e, from) = 1} w(e) - sum_{e: Phi(e, t) = 0} w(e)
//   cut:  gain(u, t) = sum_{e: Phi(e, t) = |e| - 1} w(e) - sum_{e: Phi(e, from) = |e| > 1} w(e)
//   soed: the sum of both (soed = km1 + cut).
// One instance per thread; it owns O(k) scratch space.
#include <vector>

#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

struct MoveCandidate {
  BlockID to = kInvalidBlockID;
  Weight gain = 0;
};

// The engine's order of moves: the higher gain, then the lighter target block, then the lower
// block id. Every rating (exact gains, the gain cache, parallel FM's view, the rebalancer) offers
// its blocks here, so the same gains give the same move everywhere.
struct BestMove {
  MoveCandidate move;
  Weight block_weight = 0; // of move.to

  void offer(BlockID t, Weight gain, Weight weight) {
    if (move.to == kInvalidBlockID || gain > move.gain ||
        (gain == move.gain && (weight < block_weight || (weight == block_weight && t < move.to)))) {
      move = {t, gain};
      block_weight = weight;
    }
  }
};

class GainComputer {
public:
  explicit GainComputer(BlockID k) : score_(k, 0), marked_(k, 0) {}

  // Best target block that u fits into (max_weights: k * ncon). Only blocks sharing a net with
  // u, unless any_block is set (then every block is a candidate). Ties: lighter block first,
  // then lower id. to = kInvalidBlockID when nothing fits.
  MoveCandidate best_move(const PartitionedHypergraph& phg, NodeID u, Objective objective,
                          std::span<const Weight> max_weights, bool any_block = false);

  // Gain of moving u to block `to` (to != block(u)).
  Weight gain(const PartitionedHypergraph& phg, NodeID u, BlockID to, Objective objective);

private:
  Weight accumulate(const PartitionedHypergraph& phg, NodeID u, Objective objective);

  std::vector<Weight> score_;
  std::vector<char> marked_;
  std::vector<BlockID> touched_;
};

} // namespace gnnpart::hg
