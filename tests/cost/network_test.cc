// The epoch model's network terms that carry a calibration across machines and k: the gradient
// allreduce read from a table by bytes (a token bucket's knee), and the share of an exchange
// that crosses one medium of all ranks (a rank's bytes priced at the ranks' mean); both
// optional in the profile file.
#include <filesystem>
#include <fstream>
#include <string>
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

namespace gnnpart::cost {
namespace {

namespace fs = std::filesystem;

using ml_test::graph_from_edges;

// One layer 2 -> 2 without dropout: aggregate first, one exchange of width 2 (16 bytes a row),
// 2 x 2 + 2 parameters.
GcnShape one_layer_2_2() {
  GcnShape shape;
  shape.layers = 1;
  shape.feature_dim = 2;
  shape.classes = 2;
  shape.dropout = 0;
  return shape;
}

TEST(AllreduceTable, LinearInBytesWithTheLastSegmentExtended) {
  CostProfile p = zero_profile();
  p.allreduce_latency_s = 1;
  p.allreduce_seconds_per_byte = 0.5;
  EXPECT_DOUBLE_EQ(allreduce_seconds(p, 4), 3); // no table: the line
  p.allreduce_table = {{8, 1e-3}, {72, 3e-3}, {136, 7e-3}};
  EXPECT_DOUBLE_EQ(allreduce_seconds(p, 1), 1e-3); // below the first size: its time
  EXPECT_DOUBLE_EQ(allreduce_seconds(p, 8), 1e-3);
  EXPECT_NEAR(allreduce_seconds(p, 40), 2e-3, 1e-15);
  EXPECT_NEAR(allreduce_seconds(p, 104), 5e-3, 1e-15);
  EXPECT_NEAR(allreduce_seconds(p, 200), 11e-3, 1e-15); // 64 bytes past the end: +4 ms
  // The model prices the trainer's gradients plus loss and count: (6 + 2) doubles, 64 bytes.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  const EpochPrediction e =
      predict_epoch(block_traffic(graph, Partition{2, {0, 0, 1, 1}}), one_layer_2_2(), p);
  EXPECT_NEAR(e.allreduce_seconds, 1e-3 + 56.0 / 64 * 2e-3, 1e-15);
}

TEST(SharedNetwork, PricesARanksBytesBetweenItsOwnAndTheMean) {
  // A star: vertex 0 in block 0, its three leaves in block 1. Block 0 sends 1 row and receives
  // 3, block 1 the reverse; the mean rank sends 2.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {0, 2}, {0, 3}});
  const std::vector<BlockTraffic> blocks = block_traffic(graph, Partition{2, {0, 1, 1, 1}});
  CostProfile p = zero_profile();
  p.seconds_per_byte = 1e-6;
  const GcnShape shape = one_layer_2_2();
  const double row = 16e-6;
  EpochPrediction e = predict_epoch(blocks, shape, p); // own links
  EXPECT_NEAR(e.ranks[0].send, 1 * row, 1e-15);
  EXPECT_NEAR(e.ranks[0].receive, 3 * row, 1e-15);
  EXPECT_NEAR(e.epoch_seconds, 3 * row, 1e-15);
  p.shared_network = 1; // one medium: everybody's exchange ends with the total
  e = predict_epoch(blocks, shape, p);
  for (const RankTime& t : e.ranks) {
    EXPECT_NEAR(t.send, 2 * row, 1e-15);
    EXPECT_NEAR(t.receive, 2 * row, 1e-15);
  }
  EXPECT_NEAR(e.epoch_seconds, 2 * row, 1e-15);
  p.shared_network = 0.5;
  e = predict_epoch(blocks, shape, p);
  EXPECT_NEAR(e.ranks[0].send, 1.5 * row, 1e-15);
  EXPECT_NEAR(e.ranks[0].receive, 2.5 * row, 1e-15);
  // A block that exchanges nothing waits for no one's bytes.
  const std::vector<BlockTraffic> apart =
      block_traffic(graph_from_edges(4, {{0, 1}}), Partition{3, {0, 1, 2, 2}});
  e = predict_epoch(apart, shape, p);
  EXPECT_EQ(e.ranks[2].send, 0);
  EXPECT_EQ(e.ranks[2].receive, 0);
  EXPECT_GT(e.ranks[0].send, 0);
}

class NetworkProfileFile : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gnnpart_network_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& text) {
    const std::string path = (dir_ / "p.json").string();
    std::ofstream(path) << text;
    return path;
  }
  std::string error(const std::string& text) {
    try {
      read_profile(write(text));
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  }
  fs::path dir_;
};

TEST_F(NetworkProfileFile, RoundTripOptionalAndChecked) {
  CostProfile p = zero_profile();
  p.allreduce_table = {{8, 2e-5}, {262144, 2.5e-3}};
  p.shared_network = 0.75;
  const std::string text = profile_json(p);
  EXPECT_NE(text.find("{\"bytes\": 262144, \"seconds\": 0.0025}"), std::string::npos) << text;
  const CostProfile q = read_profile(write(text));
  ASSERT_EQ(q.allreduce_table.size(), 2u);
  EXPECT_DOUBLE_EQ(q.allreduce_table[1].width, 262144);
  EXPECT_DOUBLE_EQ(q.allreduce_table[1].seconds, 2.5e-3);
  EXPECT_DOUBLE_EQ(q.shared_network, 0.75);
  // Older profiles have neither: the line and own links.
  const CostProfile old = read_profile(write(profile_json(zero_profile())));
  EXPECT_TRUE(old.allreduce_table.empty());
  EXPECT_EQ(old.shared_network, 0);
  std::string bad = text;
  bad.replace(bad.find("\"shared_network\": 0.7500"), 24, "\"shared_network\": 1.5");
  EXPECT_NE(error(bad).find("must be in [0, 1]"), std::string::npos) << error(bad);
  bad = text;
  bad.replace(bad.find("\"bytes\": 262144"), 15, "\"bytes\": 4");
  EXPECT_NE(error(bad).find("bytes must be positive and increasing"), std::string::npos)
      << error(bad);
  bad = text;
  bad.replace(bad.find("\"bytes\": 8"), 10, "\"width\": 8");
  EXPECT_NE(error(bad).find("lacks \"bytes\""), std::string::npos) << error(bad);
}

} // namespace
} // namespace gnnpart::cost
