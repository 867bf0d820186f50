// The fetch mini-batches' time per step (lib/cost/minibatch_time.h): the recounted work against
// the row counts and its own invariants, the pricing against hand-computed cases (latency only,
// GEMMs only, one rank), determinism of the expectation, bad profiles and shapes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "../partition/multilevel_test_graphs.h"
#include "core/errors.h"
#include "cost/minibatch_time.h"
#include "cost/neighbor_sampling.h"
#include "cost_test_util.h"
#include "minibatch_test_graphs.h"

namespace gnnpart::cost {
namespace {

using ml_test::random_graph;

struct Problem {
  CsrGraph graph;
  Partition partition;
  std::vector<NodeID> train;
  FetchBatchOptions options;
};

Problem problem(BlockID k) {
  Problem p{sorted_copy(random_graph(300, 900, 3)), stripes(300, k), {}, {}};
  for (NodeID u = 0; u < 300; u += 2)
    p.train.push_back(u);
  p.options.batch_size = 8;
  p.options.fanouts = {3, 5};
  p.options.seed = 11;
  return p;
}

GcnShape shape(std::uint32_t feature_dim) {
  GcnShape s;
  s.layers = 2;
  s.feature_dim = feature_dim;
  s.hidden = 6;
  s.classes = 3;
  return s;
}

CostProfile sampling_only(double seconds) {
  CostProfile p = zero_profile();
  p.sample_draw_s = p.sample_index_s = seconds;
  return p;
}

TEST(MinibatchTime, WorkAgreesWithTheRowCountsAndItself) {
  const Problem pr = problem(3);
  const auto train = train_by_block(pr.partition, pr.train);
  const std::uint32_t width = 4;
  for (std::uint64_t b = 0; b < 5; ++b) {
    const FetchStepWork work =
        fetch_step_work(pr.graph, pr.partition, train, pr.options, 2, b, width);
    const std::vector<std::uint64_t> rows =
        fetched_rows(pr.graph, pr.partition, train, pr.options, 2, b);
    ASSERT_EQ(work.exchanges.size(), 6u);
    const AllToAll& ids = work.exchanges[4];
    const AllToAll& values = work.exchanges[5];
    std::uint64_t served = 0, fetched = 0;
    for (BlockID r = 0; r < 3; ++r) {
      const FetchRankWork& w = work.ranks[r];
      EXPECT_EQ(ids.sent[r], rows[r]);
      EXPECT_EQ(values.received[r], rows[r] * width);
      EXPECT_EQ(values.entry_bytes, 8u);
      const std::uint64_t stream = batch_stream(pr.options.seed, 2, b, r);
      const auto seeds = draw_seeds(train[r], pr.options.batch_size, stream);
      EXPECT_EQ(w.seeds, seeds.size());
      EXPECT_EQ(w.targets[1], seeds.size());
      EXPECT_EQ(w.inputs[0], input_frontier(pr.graph, seeds, pr.options.fanouts, stream).size());
      EXPECT_EQ(w.inputs[1], w.targets[0]);
      served += w.rows_served;
      fetched += rows[r];
    }
    EXPECT_EQ(served, fetched);
    for (std::size_t l = 0; l < 2; ++l) {
      std::uint64_t drawn = 0, sampled = 0;
      for (const FetchRankWork& w : work.ranks) {
        drawn += w.drawn[l] + w.drawn_for[l];
        sampled += w.entries[l] - w.targets[l];
      }
      EXPECT_EQ(drawn, sampled);
    }
    for (const AllToAll& a : work.exchanges) {
      EXPECT_EQ(std::accumulate(a.sent.begin(), a.sent.end(), std::uint64_t{0}),
                std::accumulate(a.received.begin(), a.received.end(), std::uint64_t{0}));
      EXPECT_EQ(std::accumulate(a.sent_to.begin(), a.sent_to.end(), 0u),
                std::accumulate(a.received_from.begin(), a.received_from.end(), 0u));
    }
    // A request is answered with its count and its sample, drawn by the owner.
    for (std::size_t i = 0; i < 2; ++i) {
      const std::size_t l = 1 - i; // exchanges go from the top layer down
      std::uint64_t asked = 0, answered = 0, drawn_for = 0;
      for (BlockID r = 0; r < 3; ++r) {
        asked += work.exchanges[2 * i].sent[r];
        answered += work.exchanges[2 * i + 1].sent[r];
        drawn_for += work.ranks[r].drawn_for[l];
      }
      EXPECT_EQ(answered, asked + drawn_for);
    }
  }
}

TEST(MinibatchTime, LatencyOnlyPricesEveryAllToAllBySlowestRank) {
  const Problem pr = problem(3);
  const auto train = train_by_block(pr.partition, pr.train);
  const FetchStepWork work = fetch_step_work(pr.graph, pr.partition, train, pr.options, 0, 1, 4);
  CostProfile p = sampling_only(1e-15);
  p.latency_s = 1e-3;
  double expected = 0;
  for (const AllToAll& a : work.exchanges) {
    std::uint32_t most = 0;
    for (std::size_t r = 0; r < 3; ++r)
      most = std::max({most, a.sent_to[r], a.received_from[r]});
    expected += most * 1e-3;
  }
  EXPECT_GT(expected, 0.0);
  EXPECT_NEAR(predict_fetch_step(work, shape(4), p).seconds, expected, 1e-9);
}

TEST(MinibatchTime, GemmsOfOneRankByHand) {
  const Problem pr = problem(1);
  const auto train = train_by_block(pr.partition, pr.train);
  const FetchStepWork work = fetch_step_work(pr.graph, pr.partition, train, pr.options, 0, 0, 5);
  CostProfile p = sampling_only(1e-15);
  p.gemm = {{1, 2e-9}};
  p.gemm_at_b = {{1, 3e-9}};
  p.gemm_a_bt = {{1, 5e-9}};
  const FetchRankWork& w = work.ranks[0];
  const double widths[] = {5, 6, 3};
  double expected = static_cast<double>(w.targets[1]) * 6 * 3 * 5e-9; // layer 1's dagg
  double sampling = 0;
  for (std::size_t l = 0; l < 2; ++l) {
    // Dense input features; layer 1 aggregates ReLU outputs, nonzero with probability 1/2 each.
    const double rows = static_cast<double>(w.entries[l]) / static_cast<double>(w.targets[l]);
    const double density = l == 0 ? 1.0 : 1 - std::pow(0.5, rows);
    expected +=
        static_cast<double>(w.targets[l]) * widths[l] * widths[l + 1] * density * (2e-9 + 3e-9);
    sampling += static_cast<double>(w.drawn[l] + w.entries[l]) * 1e-15;
  }
  const StepPrediction one = predict_fetch_step(work, shape(5), p);
  EXPECT_NEAR(one.seconds, expected + sampling, 1e-12 * one.seconds);
  EXPECT_EQ(one.allreduce, 0.0);
  ASSERT_EQ(one.rank_work.size(), 1u);
  EXPECT_NEAR(one.rank_work[0], one.seconds, 1e-12 * one.seconds); // no one to wait for
  // Sparse input features: layer 0's GEMMs skip the aggregate's zero entries.
  GcnShape sparse = shape(5);
  sparse.feature_density = 0.01;
  EXPECT_LT(predict_fetch_step(work, sparse, p).seconds, one.seconds);
}

TEST(MinibatchTime, ExpectationIsTheMeanOfFreshStepsOnAnyThreadCount) {
  const Problem pr = problem(2);
  CostProfile p = sampling_only(1e-7);
  p.latency_s = 1e-6;
  p.elementwise_s = 1e-9;
  p.gemm = p.gemm_at_b = p.gemm_a_bt = p.spmm = {{1, 1e-9}};
  StepTimeEstimate one, two;
  tbb::task_arena(1).execute([&] {
    one =
        expected_fetch_step_seconds(pr.graph, pr.partition, pr.train, pr.options, shape(8), p, 16);
  });
  tbb::task_arena(2).execute([&] {
    two =
        expected_fetch_step_seconds(pr.graph, pr.partition, pr.train, pr.options, shape(8), p, 16);
  });
  EXPECT_EQ(one.seconds.mean, two.seconds.mean);
  EXPECT_EQ(one.seconds.standard_error, two.seconds.standard_error);
  EXPECT_GT(one.seconds.standard_error, 0.0);
  const auto train = train_by_block(pr.partition, pr.train);
  double mean = 0;
  for (std::uint64_t s = 0; s < 16; ++s) {
    const FetchStepWork work =
        fetch_step_work(pr.graph, pr.partition, train, fresh_options(pr.options), 0, s, 8);
    mean += predict_fetch_step(work, shape(8), p).seconds / 16;
  }
  EXPECT_NEAR(one.seconds.mean, mean, 1e-12);
}

TEST(MinibatchTime, BadProfileOrShape) {
  const Problem pr = problem(2);
  const auto train = train_by_block(pr.partition, pr.train);
  const FetchStepWork work = fetch_step_work(pr.graph, pr.partition, train, pr.options, 0, 0, 4);
  EXPECT_THROW(predict_fetch_step(work, shape(4), zero_profile()), InvalidParameter);
  GcnShape three = shape(4);
  three.layers = 3;
  EXPECT_THROW(predict_fetch_step(work, three, sampling_only(1e-9)), InvalidParameter);
}

TEST(MinibatchTime, SamplingRatesSurviveTheProfileFile) {
  CostProfile p = sampling_only(0);
  p.sample_draw_s = 2.5e-8;
  p.sample_index_s = 1.25e-7;
  const std::string path =
      (std::filesystem::temp_directory_path() / "gnnpart_minibatch_time_profile.json").string();
  write_profile(path, p);
  const CostProfile back = read_profile(path);
  std::remove(path.c_str());
  EXPECT_DOUBLE_EQ(back.sample_draw_s, 2.5e-8);
  EXPECT_DOUBLE_EQ(back.sample_index_s, 1.25e-7);
}

} // namespace
} // namespace gnnpart::cost
