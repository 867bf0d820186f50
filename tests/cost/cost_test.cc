// The epoch-time model: block traffic against the trainer's layout plans, the profile format
// (round trip, malformed files), the model's arithmetic on hand-checked cases, and
// `gnnpart evaluate --cost` end to end.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "../partition/multilevel_test_graphs.h"
#include "core/errors.h"
#include "core/graph.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "cost/profile.h"
#include "cost_test_util.h"
#include "layout/layout_plan.h"

namespace gnnpart::cost {
namespace {

namespace fs = std::filesystem;

using ml_test::graph_from_edges;

// Two layers 4 -> 8 -> 2 (the trainer's default dropout).
GcnShape shape_4_8_2() {
  GcnShape shape;
  shape.feature_dim = 4;
  shape.hidden = 8;
  shape.classes = 2;
  return shape;
}

TEST(BlockTraffic, MatchesTheTrainersLayoutPlans) {
  const CsrGraph graph = ml_test::random_graph(60, 150, 3);
  Partition partition{3, {}};
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    partition.blocks.push_back((u * 7 + u / 4) % 3);
  const std::vector<BlockTraffic> traffic = block_traffic(graph, partition);
  const std::vector<LayoutPlan> plans = build_layout_plans(graph, partition);
  ASSERT_EQ(traffic.size(), plans.size());
  for (std::size_t b = 0; b < plans.size(); ++b) {
    const LayoutPlan& plan = plans[b];
    std::uint64_t local = plan.num_owned(), halo_nnz = 0, send_msgs = 0, recv_msgs = 0;
    for (NodeID c : plan.columns)
      (c < plan.num_owned() ? local : halo_nnz) += 1;
    for (std::size_t i = 0; i < plan.neighbors.size(); ++i) {
      send_msgs += plan.send_offsets[i + 1] > plan.send_offsets[i];
      recv_msgs += plan.recv_offsets[i + 1] > plan.recv_offsets[i];
    }
    EXPECT_EQ(traffic[b].rows, plan.num_owned());
    EXPECT_EQ(traffic[b].halo, plan.num_halo());
    EXPECT_EQ(traffic[b].local_nnz, local);
    EXPECT_EQ(traffic[b].halo_nnz, halo_nnz);
    EXPECT_EQ(traffic[b].send_rows, plan.send_rows());
    EXPECT_EQ(traffic[b].recv_rows, plan.recv_rows());
    EXPECT_EQ(traffic[b].send_messages, send_msgs);
    EXPECT_EQ(traffic[b].recv_messages, recv_msgs);
  }
}

TEST(EpochModel, SpmmOnlyProfileCountsNonzerosTimesWidths) {
  // Path 0-1-2-3, blocks {0,1} {2,3}. Two layers 4 -> 8 -> 2: layer 0 aggregates first
  // (width 4), layer 1 transforms first (width 2). The SpMM runs over all of a block's
  // nonzeros in both forward layers and in layer 1's backward pass (layer 0 needs no input
  // gradient, so its backward pass has no SpMM): widths 4 + 2 + 2.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  const Partition partition{2, {0, 0, 1, 1}};
  const std::vector<BlockTraffic> blocks = block_traffic(graph, partition);
  ASSERT_EQ(blocks[0].local_nnz, 4u); // 2 self loops + 0-1 both ways
  ASSERT_EQ(blocks[0].halo_nnz, 1u);
  CostProfile p = zero_profile();
  p.spmm = {{1, 1e-3}};
  const GcnShape shape = shape_4_8_2();
  const EpochPrediction e = predict_epoch(blocks, shape, p);
  // nnz 5 per block; forward widths 4 + 2, backward width 2 (layer 1 only).
  const double expected = 5 * (4 + 2 + 2) * 1e-3;
  EXPECT_NEAR(e.ranks[0].compute, expected, 1e-12);
  EXPECT_NEAR(e.epoch_seconds, expected, 1e-12);
  EXPECT_NEAR(e.ranks[0].wait, 0, 1e-12);
  EXPECT_EQ(e.segment_seconds.size(), 4u); // three exchanges and the trailing segment
}

TEST(EpochModel, CommunicationAndWaitForTheSlowestRank) {
  // Star-ish graph: block 0 holds 4 vertices, block 1 holds 2.
  const CsrGraph graph = graph_from_edges(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
  const Partition partition{2, {0, 0, 0, 0, 1, 1}};
  CostProfile p = zero_profile();
  p.elementwise_s = 1e-6;
  p.latency_s = 1e-3;
  p.seconds_per_byte = 1e-6;
  GcnShape shape;
  shape.layers = 1;
  shape.feature_dim = 2;
  shape.classes = 2;
  shape.dropout = 0;
  const EpochPrediction e = predict_epoch(block_traffic(graph, partition), shape, p);
  // One exchange of width 2 (out == in: aggregate first), one row each way: 1e-3 + 16e-6.
  EXPECT_NEAR(e.ranks[0].send, 1e-3 + 16e-6, 1e-12);
  EXPECT_NEAR(e.ranks[1].receive, 1e-3 + 16e-6, 1e-12);
  EXPECT_EQ(e.critical_rank, 0u); // more rows, more elementwise work
  EXPECT_GT(e.ranks[1].wait, 0);
  EXPECT_NEAR(e.ranks[0].wait, 0, 1e-15);
  for (const RankTime& t : e.ranks) {
    EXPECT_NEAR(t.compute + t.exposed_comm + t.wait + e.allreduce_seconds, e.epoch_seconds, 1e-12);
    // The phases (the trainer's --json "phases_s") add up to the epoch; waits are kWait, but
    // the wait for the last segment's slowest rank, which the trainer spends in its allreduce.
    double phases = 0;
    for (double s : t.phases)
      phases += s;
    EXPECT_NEAR(phases, e.epoch_seconds, 1e-12);
    EXPECT_NEAR(t.phases[phase_index(Phase::kWait)] + t.phases[phase_index(Phase::kAllreduce)],
                t.exposed_comm + t.wait + e.allreduce_seconds, 1e-12);
    EXPECT_GE(t.phases[phase_index(Phase::kAllreduce)], e.allreduce_seconds - 1e-15);
    EXPECT_NEAR(t.phases[phase_index(Phase::kPack)] + t.phases[phase_index(Phase::kUnpack)],
                2 * 2 * 1e-6, 1e-12); // one row of width 2 packed, one unpacked
  }
  // One block: no communication at all.
  const Partition one{1, std::vector<BlockID>(6, 0)};
  const EpochPrediction single = predict_epoch(block_traffic(graph, one), shape, p);
  EXPECT_EQ(single.ranks[0].send, 0);
  EXPECT_EQ(single.allreduce_seconds, 0);
}

TEST(EpochModel, RateTablesInterpolateInLogWidth) {
  const RateTable t{{4, 4e-9}, {16, 2e-9}};
  EXPECT_DOUBLE_EQ(rate_at(t, 1), 4e-9);
  EXPECT_DOUBLE_EQ(rate_at(t, 64), 2e-9);
  EXPECT_NEAR(rate_at(t, 8), 3e-9, 1e-18);
  EXPECT_THROW(predict_epoch({}, GcnShape{}, zero_profile()), InvalidParameter);
}

TEST(EpochModel, RateGridsInterpolateInLogRowsAndPriceTheBlocksSize) {
  RateGrid grid;
  grid.rows = {1000, 4000};
  grid.tables = {{{4, 1e-9}}, {{4, 3e-9}}};
  EXPECT_DOUBLE_EQ(rate_at(grid, 10, 4), 1e-9);
  EXPECT_DOUBLE_EQ(rate_at(grid, 1e6, 4), 3e-9);
  EXPECT_NEAR(rate_at(grid, 2000, 4), 2e-9, 1e-18);
  EXPECT_EQ(rate_at(RateGrid{}, 2000, 4), 0);
  // A block of 2 rows prices its SpMM at the small size's rate; the same block priced by a
  // grid whose every size is slower costs more, by the SpMM alone.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  const std::vector<BlockTraffic> blocks = block_traffic(graph, Partition{2, {0, 0, 1, 1}});
  CostProfile p = zero_profile();
  p.spmm_grid.rows = {2, 8};
  p.spmm_grid.tables = {{{1, 1e-3}}, {{1, 5e-3}}};
  const GcnShape shape = shape_4_8_2();
  const double small = predict_epoch(blocks, shape, p).epoch_seconds;
  EXPECT_NEAR(small, 5 * (4 + 2 + 2) * 1e-3, 1e-12); // as the single-table test above
  p.spmm_grid.rows = {4, 8};
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, small, 1e-12); // clamped below
  p.spmm_grid.tables.front() = {{1, 2e-3}};
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, 2 * small, 1e-12);
}

TEST(EpochModel, ZeroTestsArePricedByDensity) {
  // One rank, one layer 4 -> 2 (transform first), no dropout: the GEMM's operand is the dense
  // input (density 1: no misses) unless the features are sparse.
  const CsrGraph graph = graph_from_edges(3, {{0, 1}, {1, 2}});
  const std::vector<BlockTraffic> blocks = block_traffic(graph, Partition{1, {0, 0, 0}});
  CostProfile p = zero_profile();
  p.zero_test = {{1, 1e-3}};
  GcnShape shape;
  shape.layers = 1;
  shape.feature_dim = 4;
  shape.classes = 2;
  shape.dropout = 0;
  EXPECT_EQ(predict_epoch(blocks, shape, p).epoch_seconds, 0);
  // Density 0.25: 2 min(d, 1 - d) = 0.5 of a miss per entry, forward and in H^T G.
  shape.feature_density = 0.25;
  const EpochPrediction e = predict_epoch(blocks, shape, p);
  EXPECT_NEAR(e.epoch_seconds, 2 * 3 * 4 * 0.5 * 1e-3, 1e-12);
  EXPECT_NEAR(e.ranks[0].phases[phase_index(Phase::kGemm)], 3 * 4 * 0.5 * 1e-3, 1e-12);
}

class ProfileFile : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gnnpart_cost_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  fs::path dir_;
};

TEST_F(ProfileFile, RoundTrip) {
  CostProfile p = zero_profile();
  p.latency_s = 2.5e-6;
  p.seconds_per_byte = 1.25e-10;
  p.overlap = 0.25;
  p.spmm = {{4, 1e-9}, {64, 5e-10}};
  p.adam_s = 3e-9;
  const std::string path = (dir_ / "p.json").string();
  write_profile(path, p);
  const CostProfile q = read_profile(path);
  EXPECT_EQ(q.name, "test");
  EXPECT_DOUBLE_EQ(q.latency_s, 2.5e-6);
  EXPECT_DOUBLE_EQ(q.seconds_per_byte, 1.25e-10);
  EXPECT_DOUBLE_EQ(q.overlap, 0.25);
  ASSERT_EQ(q.spmm.size(), 2u);
  EXPECT_DOUBLE_EQ(q.spmm[1].seconds, 5e-10);
  EXPECT_DOUBLE_EQ(q.adam_s, 3e-9);
}

TEST_F(ProfileFile, OptionalTablesRoundTripAndAreChecked) {
  CostProfile p = zero_profile();
  p.zero_test = {{4, 4e-9}, {16, 2e-9}};
  p.spmm_grid.rows = {100, 1000};
  p.spmm_grid.tables = {{{4, 1e-9}}, {{4, 2e-9}, {64, 3e-9}}};
  p.spmm_transposed_grid = p.spmm_grid;
  const std::string path = (dir_ / "p.json").string();
  write_profile(path, p);
  const CostProfile q = read_profile(path);
  ASSERT_EQ(q.zero_test.size(), 2u);
  EXPECT_DOUBLE_EQ(q.zero_test[1].seconds, 2e-9);
  ASSERT_EQ(q.spmm_grid.rows, (std::vector<double>{100, 1000}));
  ASSERT_EQ(q.spmm_grid.tables[1].size(), 2u);
  EXPECT_DOUBLE_EQ(q.spmm_grid.tables[1][1].seconds, 3e-9);
  EXPECT_EQ(q.spmm_transposed_grid.rows.size(), 2u);
  // A profile without them (an older one) reads as before; sizes must increase.
  EXPECT_TRUE(read_profile(write("old.json", profile_json(zero_profile()))).spmm_grid.empty());
  std::string text = profile_json(p);
  text.replace(text.find("\"rows\": 1000"), 12, "\"rows\": 50");
  try {
    read_profile(write("bad.json", text));
    ADD_FAILURE() << "decreasing rows accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("increasing"), std::string::npos) << e.what();
  }
}

TEST_F(ProfileFile, MalformedProfilesNameFileAndLine) {
  const std::string good = profile_json(zero_profile());
  auto message = [&](const std::string& text) {
    const std::string path = write("bad.json", text);
    try {
      read_profile(path);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string text = good;
  text.replace(text.find("\"overlap\": 0.0000"), 17, "\"overlap\": 1.5");
  EXPECT_NE(message(text).find("bad.json:11:"), std::string::npos) << message(text);
  text = good;
  text.replace(text.find("\"latency_s\""), 11, "\"latency\"");
  EXPECT_NE(message(text).find("lacks \"latency_s\""), std::string::npos) << message(text);
  text = good;
  text.replace(text.find("\"assumed\""), 9, "\"guessed\"");
  EXPECT_NE(message(text).find("bad.json:3:"), std::string::npos) << message(text);
  EXPECT_NE(message("{\n\"name\": \"x\",\n").find("bad.json:3:"), std::string::npos);
  EXPECT_THROW(read_profile((dir_ / "missing.json").string()), InputError);
}

// `gnnpart evaluate --cost`: ranking order, JSON per rank, errors without partial output.
TEST_F(ProfileFile, EvaluateRanksPartitionsByPredictedTime) {
  const std::string graph = write("g.edges", "0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n0 3\n");
  const std::string balanced = write("balanced.part", "0\n0\n0\n1\n1\n1\n");
  const std::string skewed = write("skewed.part", "0\n0\n0\n0\n0\n1\n");
  CostProfile p = zero_profile();
  p.elementwise_s = 1e-6;
  p.spmm = {{1, 1e-6}};
  const std::string profile = (dir_ / "p.json").string();
  write_profile(profile, p);
  auto run = [&](const std::string& args, int* status) {
    const std::string command = std::string(GNNPART_BINARY) + " evaluate " + args + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::string out;
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr)
      out += buffer;
    *status = pclose(pipe);
    return out;
  };
  int status = 0;
  const std::string ranking =
      run(graph + " " + skewed + " " + balanced + " --cost " + profile + " --json", &status);
  EXPECT_EQ(status, 0) << ranking;
  EXPECT_LT(ranking.find("balanced.part"), ranking.find("skewed.part")) << ranking;
  const std::string one = run(graph + " " + skewed + " --cost " + profile, &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(one.find("critical"), std::string::npos) << one;
  const std::string bad = write("bad.json", "{\"name\": 3}\n");
  const std::string error = run(graph + " " + skewed + " --cost " + bad, &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(error.find("bad.json:1:"), std::string::npos) << error;
  run(graph + " " + skewed + " " + balanced, &status);
  EXPECT_NE(status, 0); // several partitions need --cost
}

} // namespace
} // namespace gnnpart::cost
