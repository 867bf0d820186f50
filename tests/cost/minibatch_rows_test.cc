// The fetch mini-batch sampler and its row counts (lib/cost/neighbor_sampling.h,
// lib/cost/minibatch_rows.h): the draws' properties, the frontier against a breadth-first ball
// when nothing is cut away, the counts against a brute-force recount, determinism and bad input.
#include <algorithm>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "../partition/multilevel_test_graphs.h"
#include "core/errors.h"
#include "cost/minibatch_rows.h"
#include "cost/neighbor_sampling.h"
#include "minibatch_test_graphs.h"

namespace gnnpart::cost {
namespace {

using ml_test::grid_graph;
using ml_test::random_graph;

// Vertices within `hops` of `seeds` (breadth-first, independent of the sampler).
std::set<NodeID> ball(const CsrGraph& g, const std::vector<NodeID>& seeds, std::size_t hops) {
  std::set<NodeID> seen(seeds.begin(), seeds.end());
  std::vector<NodeID> layer = seeds;
  for (std::size_t h = 0; h < hops; ++h) {
    std::vector<NodeID> next;
    for (NodeID u : layer)
      for (NodeID v : g.neighbors(u))
        if (seen.insert(v).second)
          next.push_back(v);
    layer = next;
  }
  return seen;
}

TEST(NeighborSampling, AllWhenDegreeFitsElseDistinctSubset) {
  const std::vector<NodeID> nb = {2, 5, 7, 11, 13, 17, 19, 23};
  std::vector<NodeID> out;
  sample_neighbors(nb, 8, 42, 0, 3, out);
  EXPECT_EQ(out, nb);
  out.clear();
  sample_neighbors(nb, 3, 42, 0, 3, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
  EXPECT_EQ(std::set<NodeID>(out.begin(), out.end()).size(), 3u);
  for (NodeID v : out)
    EXPECT_TRUE(std::binary_search(nb.begin(), nb.end(), v));
  std::vector<NodeID> again;
  sample_neighbors(nb, 3, 42, 0, 3, again);
  EXPECT_EQ(out, again);
}

TEST(NeighborSampling, EveryNeighbourEquallyLikely) {
  std::vector<NodeID> nb(40);
  for (NodeID i = 0; i < 40; ++i)
    nb[i] = 2 * i;
  std::vector<int> hits(80, 0);
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    std::vector<NodeID> out;
    sample_neighbors(nb, 10, batch_stream(7, 0, t, 0), 1, 99, out);
    for (NodeID v : out)
      hits[v] += 1;
  }
  // Expected 1000 hits each (10 of 40); a binomial's sd is about 27.
  for (NodeID v : nb)
    EXPECT_NEAR(hits[v], 1000, 150) << v;
}

TEST(NeighborSampling, SeedsAreADeterministicSubset) {
  std::vector<NodeID> train;
  for (NodeID u = 0; u < 100; u += 3)
    train.push_back(u);
  const auto a = draw_seeds(train, 10, batch_stream(1, 2, 3, 4));
  ASSERT_EQ(a.size(), 10u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::set<NodeID>(a.begin(), a.end()).size(), 10u);
  for (NodeID u : a)
    EXPECT_EQ(u % 3, 0u);
  EXPECT_EQ(a, draw_seeds(train, 10, batch_stream(1, 2, 3, 4)));
  EXPECT_NE(a, draw_seeds(train, 10, batch_stream(1, 2, 3, 5)));
  EXPECT_EQ(draw_seeds(train, 1000, 9), train);
  EXPECT_TRUE(draw_seeds({}, 10, 9).empty());
}

TEST(MinibatchRows, FrontierIsTheBallWhenFanoutsCoverEveryDegree) {
  const CsrGraph g = sorted_copy(grid_graph(8, 9));
  const std::vector<NodeID> seeds = {0, 40, 71};
  const std::vector<std::uint32_t> fanouts = {4, 4, 4};
  const auto frontier = input_frontier(g, seeds, fanouts, 5);
  const auto expected = ball(g, seeds, 3);
  EXPECT_EQ(std::set<NodeID>(frontier.begin(), frontier.end()), expected);
  // With fanout 1 the frontier holds each seed and at most 1 + 2 + 4 more per seed.
  const auto thin = input_frontier(g, seeds, std::vector<std::uint32_t>{1, 1, 1}, 5);
  EXPECT_LE(thin.size(), seeds.size() * 8);
  for (NodeID s : seeds)
    EXPECT_TRUE(std::binary_search(thin.begin(), thin.end(), s));
}

TEST(MinibatchRows, CountsEqualABruteForceRecount) {
  const CsrGraph g = sorted_copy(random_graph(300, 900, 3));
  const Partition p = stripes(300, 3);
  std::vector<NodeID> train;
  for (NodeID u = 0; u < 300; u += 2)
    train.push_back(u);
  FetchBatchOptions o;
  o.batch_size = 8;
  o.fanouts = {3, 5};
  o.seed = 11;
  const auto by_block = train_by_block(p, train);
  for (std::uint64_t b = 0; b < 5; ++b) {
    const auto rows = fetched_rows(g, p, by_block, o, 1, b);
    for (BlockID r = 0; r < 3; ++r) {
      const std::uint64_t stream = batch_stream(o.seed, 1, b, r);
      const auto seeds = draw_seeds(by_block[r], o.batch_size, stream);
      std::uint64_t remote = 0;
      for (NodeID u : input_frontier(g, seeds, o.fanouts, stream))
        remote += p.blocks[u] != r;
      EXPECT_EQ(rows[r], remote);
      for (NodeID u : remote_inputs(g, p, r, seeds, o.fanouts, stream))
        EXPECT_NE(p.blocks[u], r);
    }
  }
}

TEST(MinibatchRows, ExpectationIsExactWhenNothingIsRandom) {
  // Every training vertex in every batch and fanouts above every degree: each step fetches
  // the 2-hop ball of a block's training vertices outside the block, with no variance.
  const CsrGraph g = sorted_copy(grid_graph(6, 10));
  const Partition p = stripes(60, 2);
  std::vector<NodeID> train = {1, 7, 22, 35, 48, 59};
  FetchBatchOptions o;
  o.batch_size = 100;
  o.fanouts = {4, 4};
  const auto by_block = train_by_block(p, train);
  double expected = 0;
  for (BlockID r = 0; r < 2; ++r)
    for (NodeID u : ball(g, by_block[r], 2))
      expected += p.blocks[u] != r;
  const FetchRowsEstimate est = expected_fetched_rows(g, p, train, o, 20);
  EXPECT_EQ(est.mean, expected);
  EXPECT_EQ(est.standard_error, 0.0);
  EXPECT_GT(expected, 0.0);
  // One block: nothing is remote.
  EXPECT_EQ(expected_fetched_rows(g, stripes(60, 1), train, o, 5).mean, 0.0);
}

TEST(MinibatchRows, EstimateIsDeterministicAcrossThreadCounts) {
  const CsrGraph g = sorted_copy(random_graph(400, 1600, 5));
  const Partition p = stripes(400, 4);
  std::vector<NodeID> train(400);
  for (NodeID u = 0; u < 400; ++u)
    train[u] = u;
  FetchBatchOptions o;
  o.batch_size = 16;
  o.fanouts = {2, 3};
  FetchRowsEstimate one, two;
  tbb::task_arena(1).execute([&] { one = expected_fetched_rows(g, p, train, o, 64); });
  tbb::task_arena(2).execute([&] { two = expected_fetched_rows(g, p, train, o, 64); });
  EXPECT_EQ(one.mean, two.mean);
  EXPECT_EQ(one.per_block, two.per_block);
  EXPECT_GT(one.standard_error, 0.0);
  double sum = 0;
  for (double r : one.per_block)
    sum += r;
  EXPECT_NEAR(sum, one.mean, 1e-9 * one.mean);
}

TEST(MinibatchRows, BadInput) {
  const CsrGraph g = sorted_copy(grid_graph(3, 3));
  const Partition p = stripes(9, 2);
  FetchBatchOptions o;
  o.batch_size = 2;
  o.fanouts = {2};
  const std::vector<NodeID> train = {0, 1};
  EXPECT_THROW(expected_fetched_rows(g, p, train, o, 0), InvalidParameter);
  o.fanouts = {0};
  EXPECT_THROW(expected_fetched_rows(g, p, train, o, 4), InvalidParameter);
  o.fanouts = {2};
  o.batch_size = 0;
  EXPECT_THROW(expected_fetched_rows(g, p, train, o, 4), InvalidParameter);
  o.batch_size = 2;
  EXPECT_THROW(expected_fetched_rows(g, stripes(8, 2), train, o, 4), InvalidParameter);
  const CsrGraph unsorted({0, 2, 3, 4}, {2, 1, 0, 0});
  EXPECT_THROW(expected_fetched_rows(unsorted, stripes(3, 2), std::vector<NodeID>{0}, o, 4),
               InvalidParameter);
}

} // namespace
} // namespace gnnpart::cost
