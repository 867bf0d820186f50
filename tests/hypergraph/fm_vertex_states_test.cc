// FM's per-vertex state (6 bytes a vertex up to k = 2^16, 8-bit round and 16-bit move stamps):
// over more rounds and moves than the stamps hold, every answer agrees with a reference that
// keeps 64-bit stamps and 32-bit targets, so the resets when a counter runs out lose and invent
// nothing, and targets come back whole on both sides of k = 2^16.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/random.h"
#include "hypergraph/fm_vertex_states.h"

namespace gnnpart::hg {
namespace {

struct Reference {
  explicit Reference(NodeID n) : moved(n, 0), active(n, 0), rated(n, 0), target(n, 0) {}
  std::vector<std::uint64_t> moved, active, rated;
  std::vector<BlockID> target;
  std::uint64_t round = 0, move = 0;
};

void agree_with_reference(BlockID k) {
  const NodeID n = 40;
  FmVertexStates states(n, k);
  Reference ref(n);
  Rng rng(7);
  // 600 rounds (the round stamp resets twice), 70000 moves in all (the move stamp once).
  for (int round = 0; round < 600; ++round) {
    states.begin_round();
    ++ref.round;
    for (NodeID u = 0; u < n; ++u) {
      ASSERT_EQ(states.seed_candidate(u), ref.active[u] == ref.round) << "round " << round;
      ASSERT_EQ(states.moved(u), false);
    }
    const int moves = round == 300 ? 70000 - 599 : 1;
    for (int m = 0; m < moves; ++m) {
      const auto u = static_cast<NodeID>(rng.below(n));
      states.mark_moved(u);
      ref.moved[u] = ref.round;
      states.begin_move();
      ++ref.move;
      for (int visit = 0; visit < 6; ++visit) {
        const auto v = static_cast<NodeID>(rng.below(n));
        ASSERT_EQ(states.moved(v), ref.moved[v] == ref.round);
        const bool first = ref.rated[v] != ref.move;
        ref.rated[v] = ref.move;
        ASSERT_EQ(states.mark_rated(v), first) << "move " << ref.move;
        // The largest target half of the time, so that every high bit is used.
        const auto b = rng.below(2) == 0 ? k - 1 : static_cast<BlockID>(rng.below(k));
        states.set_target(v, b);
        ref.target[v] = b;
      }
    }
    for (int s = 0; s < 5; ++s) {
      const auto v = static_cast<NodeID>(rng.below(n));
      states.mark_next_round_seed(v);
      ref.active[v] = ref.round + 1;
    }
    for (NodeID u = 0; u < n; ++u) {
      ASSERT_EQ(states.moved(u), ref.moved[u] == ref.round);
      ASSERT_EQ(states.target(u), ref.target[u]);
    }
  }
}

TEST(FmVertexStates, AgreeWithWideStampsAcrossCounterResets) { agree_with_reference(1u << 20); }

TEST(FmVertexStates, TargetsInSixteenBitsUpToTwoToTheSixteen) {
  agree_with_reference(1u << 16);
  agree_with_reference(3);
}

} // namespace
} // namespace gnnpart::hg
