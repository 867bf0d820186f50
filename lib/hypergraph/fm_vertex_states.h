#pragma once
// Sequential k-way FM's per-vertex state in 6 bytes a vertex up to k = 2^16 (8 above; 16
// before session 15): the best block of a vertex in the queue, whether it moved in the current
// round, whether it is a seed candidate of the current round, and whether it was re-rated after
// the current move. The last three are stamps compared with a round or move counter, so nothing
// is cleared between rounds or moves; round stamps take 8 bits and move stamps 16, and when a
// counter runs out every stamp of its kind is reset (once per 65535 moves: O(n), less than the
// moves' own work). One record per vertex, so that visiting a pin touches one cache line; the
// record holds a target's low 16 bits, and only where k > 2^16 do the high bits take an array
// of their own.
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart::hg {

class FmVertexStates {
public:
  // Targets are blocks below k.
  FmVertexStates(NodeID n, BlockID k) : states_(n) {
    if (k > kLowBlocks)
      high_.resize(n);
  }

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

  BlockID target(NodeID u) const {
    const BlockID low = states_[u].target;
    return high_.empty() ? low : low | BlockID{high_[u]} << 16;
  }
  void set_target(NodeID u, BlockID b) {
    states_[u].target = static_cast<std::uint16_t>(b);
    if (!high_.empty())
      high_[u] = static_cast<std::uint16_t>(b >> 16);
  }

private:
  static constexpr std::uint8_t kLastRound = 254; // its next round's seeds carry 255
  static constexpr BlockID kLowBlocks = BlockID{1} << 16;
  struct State {
    std::uint16_t target = 0; // its low 16 bits (all of it up to k = 2^16)
    std::uint16_t rated = 0; // == move_: re-rated after the current move
    std::uint8_t moved = 0;  // == round_: moved in the current round
    std::uint8_t active = 0; // == round_: a seed candidate of the current round
  };
  static_assert(sizeof(State) == 6);
  std::vector<State> states_;
  std::vector<std::uint16_t> high_; // targets' high 16 bits; empty up to k = 2^16
  std::uint8_t round_ = 0;
  std::uint16_t move_ = 0;
};

} // namespace gnnpart::hg
