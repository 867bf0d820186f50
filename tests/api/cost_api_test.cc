// api::predict_epoch_time / api::predict_step_time against the library's cost model called
// directly, on a grid whose CSR lists every vertex's neighbours in decreasing id order (the
// step must sample them sorted, as the trainer does), and their errors.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "../test_files.h"
#include "core/graph.h"
#include "core/partition.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "cost/minibatch_time.h"
#include "cost/profile.h"
#include "gnnpart/gnnpart.hpp"

namespace gnnpart {
namespace {

namespace fs = std::filesystem;

// A slow network (100 MB/s, 20 us a message) with the sampling rates the step model needs.
const char* kProfile = R"({"name": "test", "source": "assumed", "transport": "none",
  "ranks": 2, "latency_s": 2e-05, "seconds_per_byte": 1e-08, "sync_jitter": 0,
  "allreduce_latency_s": 2e-05, "allreduce_seconds_per_byte": 1e-09, "overlap": 0,
  "spmm": [{"width": 1, "seconds": 2e-09}], "gemm": [{"width": 1, "seconds": 1e-09}],
  "gemm_at_b": [{"width": 1, "seconds": 1e-09}], "gemm_a_bt": [{"width": 1, "seconds": 1e-09}],
  "elementwise_s": 1e-09, "dropout_s": 2e-09, "adam_s": 5e-09, "sample_draw_s": 3e-08,
  "sample_index_s": 1e-07})";

// r x c grid, every list in decreasing id order; the left half of the columns is block 0.
struct Grid {
  int rows, cols;
  std::vector<std::int64_t> offsets{0}, adjacency;
  std::vector<std::int32_t> blocks;
  Grid(int r, int c) : rows(r), cols(c) {
    for (int u = 0; u < r * c; ++u) {
      const int y = u / c, x = u % c;
      if (y + 1 < r)
        adjacency.push_back(u + c);
      if (x + 1 < c)
        adjacency.push_back(u + 1);
      if (x > 0)
        adjacency.push_back(u - 1);
      if (y > 0)
        adjacency.push_back(u - c);
      offsets.push_back(static_cast<std::int64_t>(adjacency.size()));
      blocks.push_back(x < c / 2 ? 0 : 1);
    }
  }
  api::CsrView view() const { return {offsets, adjacency}; }
  CsrGraph sorted_graph() const {
    std::vector<NodeID> sorted(adjacency.begin(), adjacency.end());
    for (std::size_t u = 0; u + 1 < offsets.size(); ++u)
      std::sort(sorted.begin() + offsets[u], sorted.begin() + offsets[u + 1]);
    return CsrGraph(std::vector<EdgeID>(offsets.begin(), offsets.end()), std::move(sorted));
  }
  Partition partition() const { return Partition{2, {blocks.begin(), blocks.end()}}; }
};

struct ProfileFile {
  std::string path =
      (fs::temp_directory_path() / ("gnnpart_cost_api_" + std::to_string(::getpid()) + ".json"))
          .string();
  ProfileFile() { test_files::write_text(path, kProfile); }
  ~ProfileFile() { fs::remove(path); }
};

TEST(CppApiCost, EpochTimeIsTheLibrarysModel) {
  const Grid grid(10, 12);
  const ProfileFile profile;
  api::GcnShape shape;
  shape.feature_dim = 64;
  shape.hidden = 32;
  shape.classes = 3;
  const api::TimePrediction t =
      api::predict_epoch_time(grid.view(), grid.blocks, 2, profile.path, shape, 2);
  cost::GcnShape s;
  s.feature_dim = 64;
  s.hidden = 32;
  s.classes = 3;
  const cost::EpochPrediction expected =
      cost::predict_epoch(cost::block_traffic(grid.sorted_graph(), grid.partition()), s,
                          cost::read_profile(profile.path));
  EXPECT_NEAR(t.seconds, expected.epoch_seconds, 1e-12 * expected.epoch_seconds);
  EXPECT_EQ(t.critical_rank, expected.critical_rank);
  ASSERT_EQ(t.rank_seconds.size(), 2u);
  for (std::size_t r = 0; r < 2; ++r)
    EXPECT_NEAR(t.rank_seconds[r], expected.ranks[r].total, 1e-12 * expected.epoch_seconds);
  EXPECT_GT(t.seconds, 0);
  EXPECT_EQ(t.standard_error, 0);
}

TEST(CppApiCost, StepTimeSamplesSortedListsInTheTrainersFanoutOrder) {
  const Grid grid(10, 12);
  const ProfileFile profile;
  api::StepSampling sampling;
  sampling.batch_size = 8;
  sampling.fanouts = {3, 2}; // hop 1 first: gnnpart-train --fanouts 2,3
  sampling.samples = 16;
  sampling.seed = 5;
  for (std::uint32_t u = 0; u < 60; ++u)
    sampling.training_set.push_back(119 - u); // any order
  api::GcnShape shape;
  shape.feature_dim = 64;
  const api::TimePrediction t =
      api::predict_step_time(grid.view(), grid.blocks, 2, profile.path, sampling, shape, 2);

  cost::FetchBatchOptions options;
  options.batch_size = 8;
  options.fanouts = {2, 3};
  options.seed = 5;
  std::vector<NodeID> train(60);
  std::iota(train.begin(), train.end(), NodeID{60});
  cost::GcnShape s;
  s.feature_dim = 64;
  const cost::StepTimeEstimate expected =
      cost::expected_fetch_step_seconds(grid.sorted_graph(), grid.partition(), train, options, s,
                                        cost::read_profile(profile.path), 16);
  EXPECT_NEAR(t.seconds, expected.seconds.mean, 1e-12 * expected.seconds.mean);
  EXPECT_NEAR(t.standard_error, expected.seconds.standard_error, 1e-12 * expected.seconds.mean);
  EXPECT_EQ(t.rank_seconds, expected.mean.rank_work);
  EXPECT_GT(t.seconds, 0);
  // The expectation does not depend on the thread count.
  EXPECT_EQ(
      api::predict_step_time(grid.view(), grid.blocks, 2, profile.path, sampling, shape, 1).seconds,
      t.seconds);
}

TEST(CppApiCost, BadArgumentsAreApiInputErrors) {
  const Grid grid(4, 4);
  const ProfileFile profile;
  const auto expect_input_error = [](auto&& call, const char* says) {
    try {
      call();
      ADD_FAILURE() << "accepted: " << says;
    } catch (const api::Error& e) {
      EXPECT_EQ(e.code(), api::Error::Code::kInput) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  api::StepSampling sampling;
  sampling.batch_size = 2;
  expect_input_error(
      [&] { api::predict_step_time(grid.view(), grid.blocks, 2, profile.path, sampling); },
      "fanouts");
  sampling.fanouts = {2, -1};
  expect_input_error(
      [&] { api::predict_step_time(grid.view(), grid.blocks, 2, profile.path, sampling); },
      "fanout -1");
  sampling.fanouts = {2};
  sampling.training_set = {3, 16};
  expect_input_error(
      [&] { api::predict_step_time(grid.view(), grid.blocks, 2, profile.path, sampling); },
      "training vertex 16");
  api::GcnShape shape;
  shape.hidden = 0;
  expect_input_error(
      [&] { api::predict_epoch_time(grid.view(), grid.blocks, 2, profile.path, shape); }, "shape");
  EXPECT_THROW(api::predict_epoch_time(grid.view(), grid.blocks, 2, profile.path + ".missing"),
               api::Error);
}

} // namespace
} // namespace gnnpart
