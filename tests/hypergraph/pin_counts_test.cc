// Pin counts at large k, where nets below k/4 pins keep sparse (block, count) pairs and larger
// nets dense rows: after random moves, every Phi(e, b), the connectivity and the move's
// objective delta agree with a recount from the assignment. (The km1 gain cache at large k is
// in gains_test.cc.)
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <tbb/task_arena.h>

#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

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

// k = 300: sparse pairs take 16 bits (block ids above 255), dense rows of nets below 256 pins
// 8 bits; below, every net's entries take 8 bits.
TEST(PinCounts, SparseAndDenseNetsStayExactUnderMoves) {
  for (BlockID k : {3u, 16u, 64u, 200u, 300u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k);
    const NodeID n = 300;
    const Hypergraph hg = testing::random_hypergraph(n, 400, 6, k > 256 ? 200 : 60, 3, 1, rng);
    PartitionedHypergraph phg(hg, k);
    std::vector<BlockID> blocks = testing::random_blocks(n, k, rng);
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

// Every net's blocks as for_each_block lists them (the gain cache's build and counting read
// them so) against a recount from the assignment: exactly the blocks with a pin, in increasing
// order, and in_connectivity_set agrees for every block; a BlockReader gives the same set and
// blocks, and objective() the km1, cut and soed of the recount. k = 16 to 300: sparse nets
// (under k / 4 pins) and dense ones, 8- and 16-bit pairs (k > 256), nets of 1 to 12 pins and
// some of 40, after random moves that revisit few blocks (so pairs fill and empty).
TEST(PinCounts, BlocksOfEveryNetMatchARecountUnderMoves) {
  for (BlockID k : {16u, 17u, 64u, 100u, 128u, 256u, 300u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k + 7);
    const NodeID n = 250;
    const Hypergraph hg = testing::random_hypergraph(n, 500, 12, 40, 3, 1, rng);
    PartitionedHypergraph phg(hg, k);
    const BlockID used = std::min<BlockID>(k, 20);
    std::vector<BlockID> blocks = testing::random_blocks(n, used, rng);
    phg.assign(blocks);
    const auto expect_blocks_match = [&] {
      std::vector<bool> touched(k);
      Weight objectives[3] = {0, 0, 0}; // km1, cut, soed from the recount
      for (NetID e = 0; e < hg.num_nets(); ++e) {
        std::fill(touched.begin(), touched.end(), false);
        for (NodeID p : hg.pins(e))
          touched[phg.block(p)] = true;
        std::vector<BlockID> want;
        for (BlockID b = 0; b < k; ++b) {
          if (touched[b])
            want.push_back(b);
          ASSERT_EQ(phg.in_connectivity_set(e, b), touched[b]) << "net " << e << " block " << b;
        }
        std::vector<BlockID> got;
        phg.for_each_block(e, [&](BlockID b) { got.push_back(b); });
        ASSERT_EQ(got, want) << "net " << e;
        // The cache build's reader: the same set, and the same blocks in some order.
        phg.with_block_reader([&](const auto& reader) {
          EXPECT_EQ(reader.connectivity_set(e), phg.connectivity_set(e)) << "net " << e;
          got.clear();
          reader.for_each_block_unordered(e, [&](BlockID b) { got.push_back(b); });
        });
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, want) << "net " << e << " (reader)";
        const auto lambda = static_cast<BlockID>(want.size());
        objectives[0] += net_objective(Objective::kKm1, lambda, hg.net_weight(e));
        objectives[1] += net_objective(Objective::kCut, lambda, hg.net_weight(e));
        objectives[2] += net_objective(Objective::kSoed, lambda, hg.net_weight(e));
      }
      // objective() walks the sets in net order instead of looking each one up.
      EXPECT_EQ(phg.objective(Objective::kKm1), objectives[0]);
      EXPECT_EQ(phg.objective(Objective::kCut), objectives[1]);
      EXPECT_EQ(phg.objective(Objective::kSoed), objectives[2]);
    };
    expect_blocks_match();
    for (int step = 0; step < 2000; ++step) {
      const NodeID u = static_cast<NodeID>(rng.below(n));
      const BlockID to = static_cast<BlockID>(rng.below(step % 4 == 0 ? k : used));
      phg.move(u, to, Objective::kKm1);
      if (step % 100 == 0)
        expect_blocks_match();
    }
    expect_blocks_match();
    expect_counts_match(hg, phg, k);
  }
}

// objective() sums its nets in ranges of about 1024 on several threads, and each range walks the
// connectivity sets from the first set at or after its first net: with thousands of nets, setless
// (under 8 pins) and set-keeping ones mixed, ranges start inside the set array, and the sums must
// still equal a recount, before and after moves.
TEST(PinCounts, ObjectiveOverManyRangesMatchesARecount) {
  const BlockID k = 64; // sparse below 16 pins: nets of 1 to 7 pins keep no set
  Rng rng(91);
  const NodeID n = 3000;
  const Hypergraph hg = testing::random_hypergraph(n, 20000, 12, 40, 3, 1, rng);
  PartitionedHypergraph phg(hg, k);
  std::vector<BlockID> blocks = testing::random_blocks(n, k, rng);
  phg.assign(blocks);
  tbb::task_arena arena(4);
  const auto expect_objectives_match = [&] {
    Weight want[3] = {0, 0, 0};
    std::vector<bool> touched(k);
    for (NetID e = 0; e < hg.num_nets(); ++e) {
      std::fill(touched.begin(), touched.end(), false);
      BlockID lambda = 0;
      for (NodeID p : hg.pins(e))
        if (!touched[phg.block(p)]) {
          touched[phg.block(p)] = true;
          ++lambda;
        }
      want[0] += net_objective(Objective::kKm1, lambda, hg.net_weight(e));
      want[1] += net_objective(Objective::kCut, lambda, hg.net_weight(e));
      want[2] += net_objective(Objective::kSoed, lambda, hg.net_weight(e));
    }
    arena.execute([&] {
      EXPECT_EQ(phg.objective(Objective::kKm1), want[0]);
      EXPECT_EQ(phg.objective(Objective::kCut), want[1]);
      EXPECT_EQ(phg.objective(Objective::kSoed), want[2]);
    });
  };
  expect_objectives_match();
  for (int step = 0; step < 3000; ++step)
    phg.move(static_cast<NodeID>(rng.below(n)), static_cast<BlockID>(rng.below(k)),
             Objective::kKm1);
  expect_objectives_match();
}

// A sparse net keeps as many pairs as pins and no count of those in use (scans stop at the first
// free pair): one net of 8 pins at k = 64 (sparse below 16 pins) goes from all its pins in one
// block to every pin in a block of its own (no free pair left) and back, in several orders, and
// every count and the connectivity agree with a recount after each move.
TEST(PinCounts, SparsePairsFillAndEmptyInAnyOrder) {
  const NodeID n = 8;
  std::vector<EdgeID> offsets{0, n};
  std::vector<NodeID> pins{0, 1, 2, 3, 4, 5, 6, 7};
  const Hypergraph hg(n, offsets, pins);
  const BlockID k = 64;
  PartitionedHypergraph phg(hg, k);
  phg.assign(std::vector<BlockID>(n, 5));
  Rng rng(3);
  for (int pass = 0; pass < 20; ++pass) {
    std::vector<NodeID> order(pins);
    std::shuffle(order.begin(), order.end(), rng);
    for (NodeID i = 0; i < n; ++i) { // apart: a block per pin (pass 0: blocks 10..17)
      phg.move(order[i], static_cast<BlockID>(pass % 2 == 0 ? 10 + i : rng.below(k)),
               Objective::kKm1);
      expect_counts_match(hg, phg, k);
    }
    if (pass % 2 == 0)
      EXPECT_EQ(phg.connectivity(0), n);
    std::shuffle(order.begin(), order.end(), rng);
    const auto together = static_cast<BlockID>(rng.below(k));
    for (NodeID u : order) { // together again: pairs dropped from the front, middle and end
      phg.move(u, together, Objective::kKm1);
      expect_counts_match(hg, phg, k);
    }
    EXPECT_EQ(phg.connectivity(0), 1u);
  }
}

// A net of 2^16 pins or more takes 32-bit counts: a hypergraph with one net of 70000 pins (and
// small ones) keeps them exact past 65535 in a block (at k = 2 every net then takes 32 bits).
TEST(PinCounts, WideCountsForHugeNets) {
  const NodeID n = 70000;
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (NodeID u = 0; u < n; ++u)
    pins.push_back(u);
  offsets.push_back(pins.size());
  for (NodeID u = 0; u + 1 < n; u += 7) {
    pins.insert(pins.end(), {u, u + 1});
    offsets.push_back(pins.size());
  }
  const Hypergraph hg(n, offsets, pins);
  for (BlockID k : {2u, 32u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    PartitionedHypergraph phg(hg, k);
    std::vector<BlockID> blocks(n, 0);
    for (NodeID u = 0; u < 100; ++u)
      blocks[u] = 1 + u % (k - 1);
    phg.assign(blocks);
    EXPECT_EQ(phg.pin_count(0, 0), n - 100);
    Rng rng(k);
    for (int step = 0; step < 300; ++step) {
      const NodeID u = static_cast<NodeID>(rng.below(n));
      const auto to = static_cast<BlockID>(rng.below(k));
      if (to != phg.block(u))
        phg.move(u, to, Objective::kKm1);
    }
    expect_counts_match(hg, phg, k);
  }
}

} // namespace
} // namespace gnnpart::hg
