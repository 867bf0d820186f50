// `gnnpart evaluate --minibatch --cost`: gnnpart-train's fetch-mode time per step predicted in
// one process, checked against the library's expectation called directly (so the CLI's fanout
// order, training set, seed and shape are the ones it says), the ranking of several partitions,
// and the one-line errors.
#include <gtest/gtest.h>

#include <initializer_list>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cli_test_util.h"
#include "cost/minibatch_time.h"
#include "cost/profile.h"
#include "io/graph_io.h"

namespace gnnpart::cli_testing {
namespace {

const std::string kCora = GNNPART_SHARED_DIR "/datasets/cora.edges.gz";

const std::string kShape = " --feature-dim 64 --hidden 16 --classes 7";

void expect_one_line_error(const Result& r) {
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(r.err.rfind("gnnpart: error: ", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

// Cora's hypergraph-model partition into 2 blocks (DIR/h.part).
std::string hypergraph_partition(const TempDir& dir) {
  const Result r =
      gnnpart("partition " + kCora + " -k 2 --model hypergraph -q -o " + dir.file("h.part"));
  EXPECT_EQ(r.code, 0) << r.err;
  return dir.file("h.part");
}

// Block u mod 2: about half of every vertex's neighbours on the other rank.
std::string alternating_partition(const TempDir& dir, std::uint32_t n) {
  std::string text;
  for (std::uint32_t u = 0; u < n; ++u)
    text += u % 2 ? "1\n" : "0\n";
  write_file(dir.file("alt.part"), text);
  return dir.file("alt.part");
}

TEST(CliMinibatchCost, StepTimeIsTheLibrarysExpectationForTheTrainersFanouts) {
  TempDir dir;
  write_file(dir.file("p.json"), kSlowNetworkProfile);
  const std::string hyper = hypergraph_partition(dir);
  // Fanouts hop 1 first (5 for the seeds, 3 for the input layer): the trainer's 3,5.
  const Result r =
      gnnpart("evaluate " + kCora + " " + hyper + " --minibatch --cost " + dir.file("p.json") +
              " --batch-size 64 --fanouts 5,3 --samples 20 --seed 3 --json" + kShape);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("\"minibatch_cost\": ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string cost = r.out.substr(at);

  const CsrGraph graph = io::read_graph(kCora);
  const Partition partition = io::read_partition(hyper, graph.num_nodes(), 2);
  std::vector<NodeID> train(graph.num_nodes());
  std::iota(train.begin(), train.end(), NodeID{0});
  cost::FetchBatchOptions options;
  options.batch_size = 64;
  options.fanouts = {3, 5};
  options.seed = 3;
  cost::GcnShape shape;
  shape.layers = 2;
  shape.feature_dim = 64;
  shape.hidden = 16;
  shape.classes = 7;
  const cost::StepTimeEstimate expected = cost::expected_fetch_step_seconds(
      graph, partition, train, options, shape, cost::read_profile(dir.file("p.json")), 20);
  const cost::FetchRowsEstimate rows =
      cost::expected_fetched_rows(graph, partition, train, options, 20);
  EXPECT_NEAR(json_number(cost, "predicted_step_s"), expected.seconds.mean,
              1e-5 * expected.seconds.mean);
  EXPECT_NEAR(json_number(cost, "fetch_s"), expected.mean.fetch, 1e-5 * expected.mean.fetch);
  EXPECT_NEAR(json_number(cost, "rows_per_step"), rows.mean, 1e-5 * rows.mean);
  EXPECT_GT(rows.mean, 0);
  // The split adds up to the step.
  const double parts = json_number(cost, "sampling_s") + json_number(cost, "fetch_s") +
                       json_number(cost, "layers_s") + json_number(cost, "allreduce_s") +
                       json_number(cost, "adam_s");
  EXPECT_NEAR(parts, expected.seconds.mean, 1e-4 * expected.seconds.mean);
}

TEST(CliMinibatchCost, RanksThePartitionThatFetchesFewerRowsFirstOnASlowNetwork) {
  TempDir dir;
  write_file(dir.file("p.json"), kSlowNetworkProfile);
  const std::string hyper = hypergraph_partition(dir);
  const std::string alt = alternating_partition(dir, 2708);
  const Result r =
      gnnpart("evaluate " + kCora + " " + alt + " " + hyper + " --minibatch --cost " +
              dir.file("p.json") + " --batch-size 64 --fanouts 5,3 --samples 20 --json" + kShape);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t h = r.out.find("h.part"), a = r.out.find("alt.part");
  ASSERT_NE(h, std::string::npos) << r.out;
  ASSERT_NE(a, std::string::npos) << r.out;
  EXPECT_LT(h, a) << r.out;
  // The same ranking as text.
  const Result text =
      gnnpart("evaluate " + kCora + " " + alt + " " + hyper + " --minibatch --cost " +
              dir.file("p.json") + " --batch-size 64 --fanouts 5,3 --samples 20" + kShape);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("ranked by predicted mini-batch step time"), std::string::npos)
      << text.out;
  EXPECT_LT(text.out.find("h.part"), text.out.find("alt.part")) << text.out;
}

TEST(CliMinibatchCost, ClearErrors) {
  TempDir dir;
  write_file(dir.file("p.json"), kSlowNetworkProfile);
  // A profile calibrated before the sampling rates existed.
  std::string old_profile = kSlowNetworkProfile;
  old_profile = old_profile.substr(0, old_profile.find(", \"sample_draw_s\"")) + "}";
  write_file(dir.file("old.json"), old_profile);
  const std::string alt = alternating_partition(dir, 2708);
  const std::string base = "evaluate " + kCora + " " + alt + " --minibatch --batch-size 64 ";
  for (const auto& [args, says] : std::initializer_list<std::pair<std::string, std::string>>{
           {"--cost " + dir.file("p.json"), "fanouts"},
           {"--cost " + dir.file("p.json") + " --fanouts 5,-1", "fanout -1"},
           {"--cost " + dir.file("old.json") + " --fanouts 5,3", "sampl"}}) {
    SCOPED_TRACE(args);
    const Result r = gnnpart(base + args);
    expect_one_line_error(r);
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

} // namespace
} // namespace gnnpart::cli_testing
