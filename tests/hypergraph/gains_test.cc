// Hand-computed km1 / cut / soed gains on tiny hypergraphs, and the km1 gain cache checked
// against recomputation after random moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

// 5 vertices, nets: a = {0,1,2} w2, b = {2,3} w1, c = {0,3,4} w3, d = {4} w5.
Hypergraph tiny() {
  return Hypergraph(5, {0, 3, 5, 8, 9}, {0, 1, 2, 2, 3, 0, 3, 4, 4}, {2, 1, 3, 5});
}

TEST(PartitionedHypergraph, PinCountsAndObjectives) {
  const Hypergraph hg = tiny();
  PartitionedHypergraph phg(hg, 3);
  const std::vector<BlockID> blocks{0, 0, 1, 1, 2};
  phg.assign(blocks);
  EXPECT_EQ(phg.pin_count(0, 0), 2u);
  EXPECT_EQ(phg.pin_count(0, 1), 1u);
  EXPECT_EQ(phg.connectivity(0), 2u);
  EXPECT_EQ(phg.connectivity(1), 1u);
  EXPECT_EQ(phg.connectivity(2), 3u);
  EXPECT_EQ(phg.connectivity(3), 1u);
  // km1: a (2-1)*2 + c (3-1)*3 = 8; cut: 2 + 3 = 5; soed: 2*2 + 3*3 = 13.
  EXPECT_EQ(phg.objective(Objective::kKm1), 8);
  EXPECT_EQ(phg.objective(Objective::kCut), 5);
  EXPECT_EQ(phg.objective(Objective::kSoed), 13);
  EXPECT_EQ(phg.objective_sequential(Objective::kSoed), 13);
  EXPECT_EQ(phg.block_weight(0), 2);
  std::vector<BlockID> seen;
  phg.for_each_block(2, [&](BlockID b) { seen.push_back(b); });
  EXPECT_EQ(seen, (std::vector<BlockID>{0, 1, 2}));
}

TEST(GainComputer, HandComputedGains) {
  const Hypergraph hg = tiny();
  PartitionedHypergraph phg(hg, 3);
  phg.assign(std::vector<BlockID>{0, 0, 1, 1, 2});
  GainComputer gc(3);
  // Vertex 2 (block 1) to block 0: net a becomes uncut (+2 km1, +2 cut); net b gets cut
  // (-1 km1, -1 cut).
  EXPECT_EQ(gc.gain(phg, 2, 0, Objective::kKm1), 1);
  EXPECT_EQ(gc.gain(phg, 2, 0, Objective::kCut), 1);
  EXPECT_EQ(gc.gain(phg, 2, 0, Objective::kSoed), 2);
  // Vertex 3 (block 1) to block 2: b gets cut (-1/-1); c loses block 1 (+3 km1, cut stays).
  EXPECT_EQ(gc.gain(phg, 3, 2, Objective::kKm1), 2);
  EXPECT_EQ(gc.gain(phg, 3, 2, Objective::kCut), -1);
  EXPECT_EQ(gc.gain(phg, 3, 2, Objective::kSoed), 1);
  // Vertex 4 (block 2) to block 0: c loses block 2 (+3); single-pin net d does not count.
  EXPECT_EQ(gc.gain(phg, 4, 0, Objective::kKm1), 3);
  EXPECT_EQ(gc.gain(phg, 4, 0, Objective::kCut), 0);
  const std::vector<Weight> roomy(3, 100);
  const MoveCandidate best = gc.best_move(phg, 4, Objective::kKm1, roomy);
  EXPECT_EQ(best.gain, 3);
  EXPECT_EQ(best.to, 0u); // blocks 0 and 1 tie at gain 3 and weight 2: lower id
  const std::vector<Weight> tight{2, 100, 100}; // block 0 is full
  EXPECT_EQ(gc.best_move(phg, 4, Objective::kKm1, tight).to, 1u);
}

TEST(PartitionedHypergraph, MoveDeltaMatchesObjectiveChange) {
  const Hypergraph hg = tiny();
  for (Objective objective : {Objective::kKm1, Objective::kCut, Objective::kSoed}) {
    PartitionedHypergraph phg(hg, 3);
    phg.assign(std::vector<BlockID>{0, 0, 1, 1, 2});
    Rng rng(7);
    GainComputer gc(3);
    for (int i = 0; i < 200; ++i) {
      const NodeID u = static_cast<NodeID>(rng.below(5));
      const BlockID to = static_cast<BlockID>(rng.below(3));
      if (to == phg.block(u))
        continue;
      const Weight before = phg.objective_sequential(objective);
      const Weight predicted = gc.gain(phg, u, to, objective);
      const Weight delta = phg.move(u, to, objective);
      EXPECT_EQ(delta, predicted);
      EXPECT_EQ(before - phg.objective_sequential(objective), delta);
      // km1 is kept through the moves, cut and soed summed: each as the recount's.
      for (Objective any : {Objective::kKm1, Objective::kVolume, Objective::kCut, Objective::kSoed})
        EXPECT_EQ(phg.objective(any), phg.objective_sequential(any));
    }
  }
}

// k, the weight scale and the largest net: a vertex's connections take b bits while its incident
// net weight is below 2^b for b = 3 to 8 (scale 1 mixes them), 16 bits below 2^16 and 32 bits
// above; scale 40 mixes 8- and 16-bit rows, 20000 16- and 32-bit ones. At k = 96, nets below 24
// pins keep sparse pin counts; at k = 5 the rows of 3- to 7-bit entries end mid-byte. At k = 96
// and 40 the vertices with fewer than k / 16 nets have no row (their connections are counted
// when asked); with 200 nets, k = 96 has both kinds.
struct Km1CacheCase {
  BlockID k;
  Weight weight_scale;
  int big_max = 25;
  int nets = 90;
};

class Km1GainCacheTest : public ::testing::TestWithParam<Km1CacheCase> {};

// The largest km1 gain of v over every other block, fitting or not, recomputed from pin counts
// (what Km1GainCache::gain_bound must equal for a vertex with a row, and at most be without).
Weight best_gain_any_block(const PartitionedHypergraph& phg, GainComputer& gc, NodeID v) {
  Weight best = std::numeric_limits<Weight>::min();
  for (BlockID t = 0; t < phg.k(); ++t)
    if (t != phg.block(v))
      best = std::max(best, gc.gain(phg, v, t, Objective::kKm1));
  return best;
}

TEST_P(Km1GainCacheTest, MatchesRecomputationAfterRandomMoves) {
  // Random hypergraph with weighted nets of mixed sizes.
  const auto [k, scale, big_max, nets] = GetParam();
  Rng rng(11);
  const NodeID n = 60;
  const Hypergraph hg =
      testing::random_hypergraph(n, nets, std::min(5, big_max), big_max, 4, scale, rng);
  PartitionedHypergraph phg(hg, k);
  // At large k, few blocks in use at the start, so that moves revisit them.
  const BlockID used = std::min<BlockID>(k, 12);
  std::vector<BlockID> blocks = testing::random_blocks(n, used, rng);
  phg.assign(blocks);
  Km1GainCache cache(phg);
  NodeID with_rows = 0;
  for (NodeID v = 0; v < n; ++v)
    with_rows += cache.has_row(v) ? 1 : 0;
  if (k < 8) {
    EXPECT_EQ(with_rows, n);
  } else if (nets > 90) { // both kinds of vertices
    EXPECT_GT(with_rows, 0u);
    EXPECT_LT(with_rows, n);
  }
  GainComputer gc(k);
  std::vector<NetID> touched;
  // Blocks get heavy enough that some best moves are refused by the limit.
  std::vector<Weight> limits(k);
  std::vector<BlockID> all_blocks(k);
  for (BlockID b = 0; b < k; ++b) {
    limits[b] = 3 + static_cast<Weight>(b % 4);
    all_blocks[b] = b;
  }
  for (int step = 0; step < 400; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(n));
    const BlockID to = static_cast<BlockID>(rng.below(step % 3 == 0 ? k : used));
    if (to == phg.block(u))
      continue;
    const Weight expected = gc.gain(phg, u, to, Objective::kKm1);
    EXPECT_EQ(cache.gain(u, to), expected);
    const Weight before = phg.objective_sequential(Objective::kKm1);
    EXPECT_EQ(cache.move(phg, u, to, 1000, touched), expected);
    EXPECT_EQ(before - phg.objective_sequential(Objective::kKm1), expected);
    if (step % 50 == 0) {
      for (NodeID v = 0; v < n; ++v)
        for (BlockID t = 0; t < k; ++t)
          if (t != phg.block(v)) {
            ASSERT_EQ(cache.gain(v, t), gc.gain(phg, v, t, Objective::kKm1));
          }
      for (NodeID v = 0; v < n; ++v) {
        const MoveCandidate got = cache.best_move(phg, v, limits);
        const MoveCandidate want = gc.best_move(phg, v, Objective::kKm1, limits);
        ASSERT_EQ(got.to, want.to) << "vertex " << v;
        ASSERT_EQ(got.gain, want.gain) << "vertex " << v;
        const MoveCandidate among_all = cache.best_of(phg, v, all_blocks, limits);
        ASSERT_EQ(among_all.to, want.to) << "vertex " << v;
        ASSERT_EQ(among_all.gain, want.gain) << "vertex " << v;
        // The re-rating's few candidates (counted in one pass without a row).
        const BlockID few[] = {want.to == kInvalidBlockID ? 0 : want.to, phg.block(v),
                               static_cast<BlockID>((v + step) % k)};
        const MoveCandidate among_few = cache.best_of(phg, v, few, limits);
        MoveCandidate want_few;
        Weight want_weight = 0;
        const auto touches = [&](BlockID t) {
          for (NetID e : hg.incident_nets(v))
            if (phg.pin_count(e, t) > 0)
              return true;
          return false;
        };
        for (BlockID t : few)
          if (t != phg.block(v) && t != want_few.to && phg.fits(v, t, limits) && touches(t)) {
            const Weight g = gc.gain(phg, v, t, Objective::kKm1);
            const Weight bw = phg.block_weight(t);
            if (want_few.to == kInvalidBlockID || g > want_few.gain ||
                (g == want_few.gain &&
                 (bw < want_weight || (bw == want_weight && t < want_few.to)))) {
              want_few = {t, g};
              want_weight = bw;
            }
          }
        ASSERT_EQ(among_few.to, want_few.to) << "vertex " << v;
        ASSERT_EQ(among_few.gain, want_few.gain) << "vertex " << v;
        if (cache.has_row(v)) {
          ASSERT_EQ(cache.gain_bound(v, phg.block(v)), best_gain_any_block(phg, gc, v))
              << "vertex " << v;
        } else {
          ASSERT_GE(cache.gain_bound(v, phg.block(v)), best_gain_any_block(phg, gc, v))
              << "vertex " << v;
        }
        BlockID next = 0;
        std::vector<std::pair<BlockID, Weight>> positive;
        cache.for_each_conn(v, [&](BlockID t, Weight ct) {
          ASSERT_EQ(t, next++);
          ASSERT_EQ(ct, cache.conn(v, t));
          if (ct > 0)
            positive.emplace_back(t, ct);
        });
        ASSERT_EQ(next, k);
        std::vector<std::pair<BlockID, Weight>> listed;
        cache.for_each_positive_conn(v, [&](BlockID t, Weight ct) { listed.emplace_back(t, ct); });
        ASSERT_EQ(listed, positive) << "vertex " << v;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, Km1GainCacheTest,
                         ::testing::Values(Km1CacheCase{5, 1}, Km1CacheCase{96, 1},
                                           Km1CacheCase{96, 20000}, Km1CacheCase{96, 1, 3},
                                           Km1CacheCase{40, 20000, 3}, Km1CacheCase{5, 40},
                                           Km1CacheCase{96, 40}, Km1CacheCase{96, 1, 25, 200}));

// A vertex without a row has its connections counted in one pass over its nets; they must be
// what the definition gives, recounted from the assignment: conn(u, t) = w of u's nets with a
// pin in t, listed for every t with conn(u, t) > 0 (u's own block included) in increasing
// order; its best move the most connected fitting block other than its own, then the lighter,
// then the lower id. k = 64 to 2000 (sets of 1 to 32 words), weighted nets, after random moves.
TEST(Km1GainCache, CountedConnectionsOfRowlessVerticesMatchTheDefinition) {
  for (BlockID k : {64u, 130u, 300u, 2000u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k);
    const NodeID n = 150;
    const Hypergraph hg = testing::random_hypergraph(n, 200, 6, 30, 4, 1, rng);
    PartitionedHypergraph phg(hg, k);
    const BlockID used = std::min<BlockID>(k, 24);
    std::vector<BlockID> blocks = testing::random_blocks(n, used, rng);
    phg.assign(blocks);
    Km1GainCache cache;
    ASSERT_TRUE(cache.rebuild(phg));
    std::vector<Weight> limits(k);
    for (BlockID b = 0; b < k; ++b)
      limits[b] = 5 + static_cast<Weight>(b % 5);
    std::vector<NetID> touched;
    NodeID rowless = 0;
    for (int step = 0; step < 300; ++step) {
      const NodeID u = static_cast<NodeID>(rng.below(n));
      const BlockID to = static_cast<BlockID>(rng.below(step % 5 == 0 ? k : used));
      if (to != phg.block(u))
        cache.move(phg, u, to, 1000, touched);
      if (step % 30 != 0)
        continue;
      for (NodeID v = 0; v < n; ++v) {
        if (cache.has_row(v))
          continue;
        ++rowless;
        std::vector<Weight> conn(k, 0);
        Weight benefit = 0, incident = 0;
        for (NetID e : hg.incident_nets(v)) {
          std::vector<bool> in(k);
          NodeID in_own = 0;
          for (NodeID p : hg.pins(e)) {
            in[phg.block(p)] = true;
            in_own += phg.block(p) == phg.block(v) ? 1 : 0;
          }
          for (BlockID t = 0; t < k; ++t)
            conn[t] += in[t] ? hg.net_weight(e) : 0;
          incident += hg.net_weight(e);
          benefit += in_own == 1 ? hg.net_weight(e) : 0;
        }
        std::vector<std::pair<BlockID, Weight>> want;
        MoveCandidate best;
        Weight best_conn = 0, best_weight = 0;
        for (BlockID t = 0; t < k; ++t) {
          if (conn[t] == 0)
            continue;
          want.emplace_back(t, conn[t]);
          if (t == phg.block(v) || !phg.fits(v, t, limits))
            continue;
          const Weight bw = phg.block_weight(t);
          if (conn[t] > best_conn || (conn[t] == best_conn && bw < best_weight)) {
            best = {t, benefit - incident + conn[t]};
            best_conn = conn[t];
            best_weight = bw;
          }
        }
        std::vector<std::pair<BlockID, Weight>> got;
        cache.for_each_positive_conn(v, [&](BlockID t, Weight ct) { got.emplace_back(t, ct); });
        ASSERT_EQ(got, want) << "vertex " << v;
        const MoveCandidate moved = cache.best_move(phg, v, limits);
        ASSERT_EQ(moved.to, best.to) << "vertex " << v;
        ASSERT_EQ(moved.gain, best.gain) << "vertex " << v;
      }
    }
    EXPECT_GT(rowless, 0u);
  }
}

// The cache keeps benefit(u) - incident(u) as one number (base): it must equal both sums counted
// from the pin counts, for every vertex after every move.
TEST(Km1GainCache, BaseIsBenefitMinusIncidentAfterMoves) {
  const Hypergraph hg = tiny();
  PartitionedHypergraph phg(hg, 3);
  phg.assign(std::vector<BlockID>{0, 0, 1, 1, 2});
  Km1GainCache cache;
  ASSERT_TRUE(cache.rebuild(phg));
  Rng rng(11);
  std::vector<NetID> touched;
  for (int i = 0; i < 300; ++i) {
    const NodeID u = static_cast<NodeID>(rng.below(5));
    const BlockID to = static_cast<BlockID>(rng.below(3));
    if (to != phg.block(u))
      cache.move(phg, u, to, 1000, touched);
    for (NodeID v = 0; v < 5; ++v) {
      Weight benefit = 0, incident = 0;
      for (NetID e : hg.incident_nets(v)) {
        incident += hg.net_weight(e);
        if (phg.pin_count(e, phg.block(v)) == 1)
          benefit += hg.net_weight(e);
      }
      ASSERT_EQ(cache.base(v), benefit - incident) << "move " << i << ", vertex " << v;
    }
  }
}

// Every width at its limits: vertex 3 i has two nets of weights t / 2 and t - t / 2 for t =
// 2^b - 1 and 2^b, b = 3 to 8 and 16 (the largest incident weight of one width, the smallest of
// the next), so its connections take 0, either part and t; its two partners have narrower rows.
// Odd k: 3- to 7-bit entries end mid-byte and cross bytes, and the 32-bit words that update an
// entry reach into the next row, which must stay unchanged; at k = 13 the packed rows are read
// 8 entries at a time and then one by one.
TEST(Km1GainCache, EveryWidthAtItsLimits) {
  const std::vector<Weight> totals{7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 65535, 65536};
  const auto n = static_cast<NodeID>(3 * totals.size());
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> weights;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const auto v = static_cast<NodeID>(3 * i);
    for (NodeID partner : {v + 1, v + 2}) {
      pins.insert(pins.end(), {v, partner});
      offsets.push_back(pins.size());
    }
    weights.push_back(totals[i] / 2);
    weights.push_back(totals[i] - totals[i] / 2);
  }
  const Hypergraph hg(n, offsets, pins, weights);
  for (BlockID k : {BlockID{3}, BlockID{5}, BlockID{13}}) {
    PartitionedHypergraph phg(hg, k);
    std::vector<BlockID> blocks(n);
    for (NodeID v = 0; v < n; ++v)
      blocks[v] = v % k;
    phg.assign(blocks);
    Km1GainCache cache(phg);
    GainComputer gc(k);
    const std::vector<Weight> roomy(k, 1000);
    std::vector<NetID> touched;
    Rng rng(5);
    for (int step = 0; step < 300; ++step) {
      const NodeID u = static_cast<NodeID>(rng.below(n));
      const BlockID to = static_cast<BlockID>(rng.below(k));
      if (to == phg.block(u))
        continue;
      const Weight expected = gc.gain(phg, u, to, Objective::kKm1);
      ASSERT_EQ(cache.move(phg, u, to, 1000, touched), expected);
      for (NodeID v = 0; v < n; ++v) {
        for (BlockID t = 0; t < k; ++t)
          if (t != phg.block(v)) {
            ASSERT_EQ(cache.gain(v, t), gc.gain(phg, v, t, Objective::kKm1))
                << "k " << k << " vertex " << v << " block " << t;
          }
        const MoveCandidate got = cache.best_move(phg, v, roomy);
        const MoveCandidate want = gc.best_move(phg, v, Objective::kKm1, roomy);
        ASSERT_EQ(got.to, want.to) << "vertex " << v;
        ASSERT_EQ(got.gain, want.gain) << "vertex " << v;
        ASSERT_EQ(cache.gain_bound(v, phg.block(v)), best_gain_any_block(phg, gc, v))
            << "k " << k << " vertex " << v;
      }
    }
  }
}

// The km1 rebalancer that reads the gain cache makes the moves of the one that recounts gains
// (GainComputer), from overloaded random partitions, rows and rowless vertices alike; it leaves
// the cache exact and its work count unchanged.
TEST(Km1GainCache, RebalancerReadingTheCacheMakesTheSameMoves) {
  int moved_runs = 0;
  for (BlockID k : {2u, 8u, 32u, 130u}) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      SCOPED_TRACE(::testing::Message() << "k " << k << ", seed " << seed);
      Rng rng(seed * 1000 + k);
      const NodeID n = 400;
      const Hypergraph hg = testing::random_hypergraph(n, 500, 6, 40, 3, 1, rng);
      std::vector<BlockID> blocks = testing::random_blocks(n, k, rng);
      for (NodeID u = 0; u < n; u += 3) // block 0 overloaded
        blocks[u] = 0;
      PartitionedHypergraph recounting(hg, k), cached(hg, k);
      recounting.assign(blocks);
      cached.assign(blocks);
      const Weight perfect = (n + k - 1) / k;
      const std::vector<Weight> limits(k, perfect + perfect / 10 + 1);
      HgContext ctx;
      ctx.objective = Objective::kKm1;
      Km1GainCache cache;
      ASSERT_TRUE(cache.rebuild(cached));
      ASSERT_TRUE(cache.built_for(cached));
      cache.add_work(12345);
      const std::uint64_t work = cache.work();
      const bool a = rebalance(recounting, ctx, limits);
      const bool b = rebalance(cached, limits, cache);
      EXPECT_EQ(a, b);
      EXPECT_TRUE(a);
      EXPECT_EQ(std::vector<BlockID>(recounting.blocks().begin(), recounting.blocks().end()),
                std::vector<BlockID>(cached.blocks().begin(), cached.blocks().end()));
      moved_runs += !std::equal(blocks.begin(), blocks.end(), cached.blocks().begin());
      EXPECT_EQ(cache.work(), work);
      const Km1GainCache fresh(cached);
      for (NodeID v = 0; v < n; ++v) {
        ASSERT_EQ(cache.base(v), fresh.base(v)) << "vertex " << v;
        for (BlockID t = 0; t < k; ++t)
          ASSERT_EQ(cache.conn(v, t), fresh.conn(v, t)) << "vertex " << v << ", block " << t;
      }
    }
  }
  EXPECT_EQ(moved_runs, 12); // every start was overloaded
}

// The same where most candidates are interior (the nets of a path, {i, i + 1, i + 2}, blocks
// in ranges, block 0 three times its share): their best move is the lightest block they fit,
// which the cached rebalancer keeps between moves for a block and a vertex weight (weights 1-3
// here, so that the kept one is asked for other weights too).
TEST(Km1GainCache, RebalancerOfInteriorVerticesMakesTheSameMoves) {
  for (BlockID k : {4u, 32u, 130u}) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      SCOPED_TRACE(::testing::Message() << "k " << k << ", seed " << seed);
      Rng rng(seed * 77 + k);
      const NodeID n = 20 * k;
      std::vector<EdgeID> offsets{0};
      std::vector<NodeID> pins;
      for (NodeID i = 0; i + 2 < n; ++i) {
        pins.insert(pins.end(), {i, i + 1, i + 2});
        offsets.push_back(pins.size());
      }
      std::vector<Weight> vw(n);
      for (Weight& w : vw)
        w = 1 + static_cast<Weight>(rng.below(3));
      const Hypergraph hg(n, std::move(offsets), std::move(pins), {}, 1, std::move(vw));
      std::vector<BlockID> blocks(n);
      const NodeID first = 60; // block 0: vertices [0, 60), the rest in ranges of 20
      for (NodeID u = 0; u < n; ++u)
        blocks[u] = u < first ? 0 : std::min<BlockID>(k - 1, 1 + (u - first) / 20);
      PartitionedHypergraph recounting(hg, k), cached(hg, k);
      recounting.assign(blocks);
      cached.assign(blocks);
      Weight total = 0;
      for (NodeID u = 0; u < n; ++u)
        total += hg.vertex_weight(u);
      const Weight perfect = (total + k - 1) / k;
      const std::vector<Weight> limits(k, perfect + perfect / 10 + 1);
      HgContext ctx;
      ctx.objective = Objective::kKm1;
      Km1GainCache cache;
      ASSERT_TRUE(cache.rebuild(cached));
      const bool a = rebalance(recounting, ctx, limits);
      const bool b = rebalance(cached, limits, cache);
      EXPECT_EQ(a, b);
      EXPECT_EQ(std::vector<BlockID>(recounting.blocks().begin(), recounting.blocks().end()),
                std::vector<BlockID>(cached.blocks().begin(), cached.blocks().end()));
      EXPECT_FALSE(std::equal(blocks.begin(), blocks.end(), cached.blocks().begin()));
    }
  }
}

// built_for: true from a rebuild through moves made by the cache, false once the partition
// changes otherwise (a move of its own, an assignment, a restore), also after later cache
// moves, and for another partition of the same hypergraph.
TEST(Km1GainCache, BuiltForFollowsThePartitionsChanges) {
  const Hypergraph hg = tiny();
  PartitionedHypergraph phg(hg, 3), other(hg, 3);
  const std::vector<BlockID> start{0, 0, 1, 1, 2};
  phg.assign(start);
  other.assign(start);
  Km1GainCache cache;
  EXPECT_FALSE(cache.built_for(phg));
  ASSERT_TRUE(cache.rebuild(phg));
  EXPECT_TRUE(cache.built_for(phg));
  EXPECT_FALSE(cache.built_for(other));
  std::vector<NetID> touched;
  cache.move(phg, 1, 2, 1000, touched);
  EXPECT_TRUE(cache.built_for(phg));
  phg.move(1, 0, Objective::kKm1); // behind the cache's back
  EXPECT_FALSE(cache.built_for(phg));
  cache.move(phg, 3, 0, 1000, touched);
  EXPECT_FALSE(cache.built_for(phg)); // still missing the move before
  ASSERT_TRUE(cache.rebuild(phg));
  EXPECT_TRUE(cache.built_for(phg));
  phg.assign(start); // the same blocks again: still a new assignment
  EXPECT_FALSE(cache.built_for(phg));
  ASSERT_TRUE(cache.rebuild(phg));
  cache.release();
  EXPECT_FALSE(cache.built_for(phg));
}

// FM that finds the cache still built for its partition (after FM on the same level) skips the
// rebuild: the same moves, gains and work as FM given a released cache.
TEST(Km1GainCache, FmOnACacheStillBuiltMatchesARebuild) {
  for (BlockID k : {2u, 8u, 64u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k + 5);
    const NodeID n = 300;
    const Hypergraph hg = testing::random_hypergraph(n, 400, 6, 30, 3, 1, rng);
    const std::vector<BlockID> blocks = testing::random_blocks(n, k, rng);
    PartitionedHypergraph kept(hg, k), rebuilt(hg, k);
    kept.assign(blocks);
    rebuilt.assign(blocks);
    HgContext ctx;
    ctx.k = k;
    const Weight perfect = (n + k - 1) / k;
    const std::vector<Weight> strict(k, perfect + perfect / 2 + 2), relaxed(k, 2 * perfect + 2);
    Km1GainCache a, b;
    EXPECT_EQ(fm_refine(kept, ctx, strict, 1, a), fm_refine(rebuilt, ctx, strict, 1, b));
    EXPECT_TRUE(a.built_for(kept));
    b.release();
    const Weight gain = fm_refine(kept, ctx, relaxed, 2, a);
    EXPECT_EQ(gain, fm_refine(rebuilt, ctx, relaxed, 2, b));
    EXPECT_GT(gain, 0);
    EXPECT_EQ(a.work(), b.work());
    EXPECT_TRUE(std::equal(kept.blocks().begin(), kept.blocks().end(), rebuilt.blocks().begin()));
  }
}

} // namespace
} // namespace gnnpart::hg
