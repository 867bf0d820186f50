// The ranks' speed spread (profile "rank_spread"): a synchronising segment takes the expected
// slowest of ranks whose compute scatters, and the profile's rates, its slowest rank's, are
// brought back to the mean rank's.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "../partition/multilevel_test_graphs.h"
#include "core/errors.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "cost/profile.h"
#include "cost/slowest_rank.h"
#include "cost_test_util.h"

namespace gnnpart::cost {
namespace {

TEST(ExpectedSlowest, PlainMaximumWithoutSpread) {
  EXPECT_DOUBLE_EQ(expected_slowest({1, 3, 2}, {0.5, 0, 2}, 0), 4);
  EXPECT_DOUBLE_EQ(expected_slowest({0, 0}, {0, 0}, 0.2), 0);
}

TEST(ExpectedSlowest, MatchesTheMaximumOfNormals) {
  // Two equal ranks: E max of two N(1, s^2) is 1 + s / sqrt(pi), exact for Clark's fold.
  EXPECT_NEAR(expected_slowest({1, 1}, {0, 0}, 0.1), 1 + 0.1 / std::sqrt(M_PI), 1e-12);
  // Four and eight: the expected maximum of that many standard normals is 1.0294 and 1.4236;
  // the fold gives 1.0310 and 1.4230.
  EXPECT_NEAR(expected_slowest(std::vector<double>(4, 1), std::vector<double>(4, 0), 0.1),
              1 + 0.1 * 1.0294, 2e-4);
  EXPECT_NEAR(expected_slowest(std::vector<double>(8, 1), std::vector<double>(8, 0), 0.1),
              1 + 0.1 * 1.4236, 2e-4);
  // A rank far behind the others is the slowest whatever the spread; fixed time does not scatter.
  EXPECT_NEAR(expected_slowest({1, 0.5}, {0, 0}, 0.01), 1, 1e-9);
  EXPECT_NEAR(expected_slowest({0, 0.1}, {2, 0}, 0.1), 2, 1e-9);
}

TEST(RankSpread, BalancedAtTheCalibratedRanksAsBeforeImbalancedCheaper) {
  using ml_test::graph_from_edges;
  // A path 0-1-2-3 split in the middle (balanced) and 3 + 1 (imbalanced), a layer 2 -> 2.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  GcnShape shape;
  shape.layers = 1;
  shape.feature_dim = 2;
  shape.classes = 2;
  shape.dropout = 0;
  CostProfile p = zero_profile();
  p.gemm = {{1, 1e-3}};
  p.spmm = {{1, 1e-3}};
  p.ranks = 2;
  const std::vector<BlockTraffic> balanced = block_traffic(graph, Partition{2, {0, 0, 1, 1}});
  const std::vector<BlockTraffic> skewed = block_traffic(graph, Partition{2, {0, 0, 0, 1}});
  const EpochPrediction a = predict_epoch(balanced, shape, p);
  const double balanced_before = a.epoch_seconds;
  const double skewed_before = predict_epoch(skewed, shape, p).epoch_seconds;
  p.rank_spread = 0.1;
  const EpochPrediction b = predict_epoch(balanced, shape, p);
  EXPECT_NEAR(b.epoch_seconds, balanced_before, 1e-12 * balanced_before);
  // Each rank computes at the mean rate and waits for the expected slowest: the epoch is the
  // same, its split between compute and wait is not.
  const double slowest = 1 + 0.1 / std::sqrt(M_PI);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_NEAR(b.ranks[r].compute, a.ranks[r].compute / slowest, 1e-12);
    EXPECT_NEAR(b.ranks[r].wait, a.ranks[r].wait + a.ranks[r].compute * (1 - 1 / slowest),
                1e-12);
  }
  const double skewed_after = predict_epoch(skewed, shape, p).epoch_seconds;
  EXPECT_LT(skewed_after, skewed_before);
  EXPECT_GT(skewed_after, skewed_before / (1 + 0.1 / std::sqrt(M_PI)) - 1e-12);
  // Calibrated on 8 ranks (a slower slowest), the same two ranks run faster.
  p.ranks = 8;
  EXPECT_LT(predict_epoch(balanced, shape, p).epoch_seconds, balanced_before);
}

TEST(RankSpread, ProfileFieldOptionalAndChecked) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("gnnpart_rank_spread_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "p.json").string();
  CostProfile p = zero_profile();
  std::ofstream(path) << profile_json(p);
  EXPECT_EQ(read_profile(path).rank_spread, 0); // older profiles: no spread
  p.rank_spread = 0.125;
  std::string text = profile_json(p);
  std::ofstream(path) << text;
  EXPECT_DOUBLE_EQ(read_profile(path).rank_spread, 0.125);
  text.replace(text.find("\"rank_spread\": 0.1250"), 21, "\"rank_spread\": 2");
  std::ofstream(path) << text;
  EXPECT_THROW(read_profile(path), InputError);
  fs::remove_all(dir);
}

} // namespace
} // namespace gnnpart::cost
