#pragma once
// Sequential k-way FM's per-vertex state in 8 bytes a vertex (16 before): the best block of a
// vertex in the queue, whether it moved in the current round, whether it is a seed candidate of
// the current round, and whether it was re-rated after the current move. The last three are
// stamps compared with a round or move counter, so nothing is cleared between rounds or moves;
// round stamps take 8 bits and move stamps 16, and when a counter runs out every stamp of its
// kind is reset (once per 65535 moves: O(n), less than the moves' own work). One record per
// vertex, so that visiting a pin touches one cache line.
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart::hg {

class FmVertexStates {
public:
  explicit FmVertexStates(NodeID n) : states_(n) {}

  // Starts the next round: no vertex has moved in it yet; the seed candidates are those
  // marked with mark_next_round_seed during the round before.
  void begin_round() {
    if (round_ == kLastRound) { // the next round's seeds carry kLastRound + 1: make them 1
      for (State& s : states_) {
        s.moved = 0;
        s.active = s.active == kLastRound + 1 ? 1 : 0;
      }
      round_ = 1;
    } else {
      ++round_;
    }
  }
  bool moved(NodeID u) const { return states_[u].moved == round_; }
  void mark_moved(NodeID u) { states_[u].moved = round_; }
  bool seed_candidate(NodeID u) const { return states_[u].active == round_; }
  void mark_next_round_seed(NodeID u) { states_[u].active = static_cast<std::uint8_t>(round_ + 1); }

  // Starts the re-rating after a new move: no vertex is re-rated after it yet.
  void begin_move() {
    if (++move_ == 0) {
      for (State& s : states_)
        s.rated = 0;
      move_ = 1;
    }
  }
  // Marks u re-rated after the current move; false when it already was.
  bool mark_rated(NodeID u) {
    if (states_[u].rated == move_)
      return false;
    states_[u].rated = move_;
    return true;
  }

  BlockID target(NodeID u) const { return states_[u].target; }
  void set_target(NodeID u, BlockID b) { states_[u].target = b; }

private:
  static constexpr std::uint8_t kLastRound = 254; // its next round's seeds carry 255
  struct State {
    BlockID target = 0;
    std::uint16_t rated = 0; // == move_: re-rated after the current move
    std::uint8_t moved = 0;  // == round_: moved in the current round
    std::uint8_t active = 0; // == round_: a seed candidate of the current round
  };
  static_assert(sizeof(State) == 8);
  std::vector<State> states_;
  std::uint8_t round_ = 0;
  std::uint16_t move_ = 0;
};

} // namespace gnnpart::hg
