// Pin counts at large k, where nets below k/8 pins keep sparse (block, count) pairs and larger
// nets dense rows: after every random move, every Phi(e, b), the connectivity, the move's
// objective delta and the km1 gain cache agree with a recount from the assignment.
#include <gtest/gtest.h>

#include <vector>

#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart {
namespace {

// Nets of 1 to 6 pins, and every tenth net of up to 60 pins (repeated pins included), with
// weights 1 to 3 times weight_scale.
Hypergraph mixed_hypergraph(NodeID n, int nets, Rng& rng, Weight weight_scale = 1) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> weights;
  for (int e = 0; e < nets; ++e) {
    const int size = 1 + static_cast<int>(rng.below(e % 10 == 0 ? 60 : 6));
    for (int i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    offsets.push_back(pins.size());
    weights.push_back((1 + static_cast<Weight>(rng.below(3))) * weight_scale);
  }
  return Hypergraph(n, offsets, pins, weights);
}

void expect_counts_match(const Hypergraph& hg, const PartitionedHypergraph& phg, BlockID k) {
  std::vector<std::uint32_t> count(k);
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    std::fill(count.begin(), count.end(), 0);
    for (NodeID p : hg.pins(e))
      ++count[phg.block(p)];
    BlockID lambda = 0;
    for (BlockID b = 0; b < k; ++b) {
      ASSERT_EQ(phg.pin_count(e, b), count[b]) << "net " << e << " block " << b;
      lambda += count[b] > 0;
    }
    ASSERT_EQ(phg.connectivity(e), lambda) << "net " << e;
  }
}

TEST(PinCounts, SparseAndDenseNetsStayExactUnderMoves) {
  for (BlockID k : {3u, 16u, 64u, 200u}) {
    SCOPED_TRACE(testing::Message() << "k " << k);
    Rng rng(k);
    const NodeID n = 300;
    const Hypergraph hg = mixed_hypergraph(n, 400, rng);
    PartitionedHypergraph phg(hg, k);
    std::vector<BlockID> blocks(n);
    for (auto& b : blocks)
      b = static_cast<BlockID>(rng.below(k));
    phg.assign(blocks);
    expect_counts_match(hg, phg, k);
    GainComputer gc(k);
    for (int step = 0; step < 600; ++step) {
      const NodeID u = static_cast<NodeID>(rng.below(n));
      // Mostly moves into blocks the vertex's nets already touch, so counts go up and down.
      const BlockID to = step % 2 == 0 ? blocks[rng.below(n)] : static_cast<BlockID>(rng.below(k));
      if (to == phg.block(u))
        continue;
      const Weight expected = gc.gain(phg, u, to, Objective::kKm1);
      const Weight before = phg.objective_sequential(Objective::kKm1);
      EXPECT_EQ(phg.move(u, to, Objective::kKm1), expected);
      EXPECT_EQ(before - phg.objective_sequential(Objective::kKm1), expected);
      if (step % 60 == 0)
        expect_counts_match(hg, phg, k);
    }
    expect_counts_match(hg, phg, k);
    // Re-assigning resets every count, sparse pairs included.
    phg.assign(blocks);
    expect_counts_match(hg, phg, k);
  }
}

// The cache's connections take 16 bits while every vertex's incident net weight is below 2^16
// (scale 1) and 32 bits above (scale 20000).
class Km1GainCacheAtLargeK : public testing::TestWithParam<Weight> {};

TEST_P(Km1GainCacheAtLargeK, StaysExact) {
  Rng rng(5);
  const NodeID n = 200;
  const BlockID k = 96;
  const Hypergraph hg = mixed_hypergraph(n, 300, rng, GetParam());
  PartitionedHypergraph phg(hg, k);
  std::vector<BlockID> blocks(n);
  for (auto& b : blocks)
    b = static_cast<BlockID>(rng.below(12)); // few blocks in use, so moves revisit them
  phg.assign(blocks);
  Km1GainCache cache(phg);
  GainComputer gc(k);
  std::vector<NetID> touched;
  for (int step = 0; step < 400; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(n));
    const BlockID to = static_cast<BlockID>(rng.below(step % 3 == 0 ? k : 12));
    if (to == phg.block(u))
      continue;
    const Weight expected = gc.gain(phg, u, to, Objective::kKm1);
    ASSERT_EQ(cache.gain(u, to), expected);
    EXPECT_EQ(cache.move(phg, u, to, 1000, touched), expected);
  }
  expect_counts_match(hg, phg, k);
  for (NodeID v = 0; v < n; ++v)
    for (BlockID t = 0; t < k; ++t)
      if (t != phg.block(v)) {
        ASSERT_EQ(cache.gain(v, t), gc.gain(phg, v, t, Objective::kKm1));
      }
}

INSTANTIATE_TEST_SUITE_P(PinCounts, Km1GainCacheAtLargeK, testing::Values(1, 20000));

} // namespace
} // namespace gnnpart
