// `gnnpart partition --objective max-volume | epoch`: the column-net model's bottleneck
// objectives through the CLI, and their one-line errors.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "cli_test_util.h"

namespace gnnpart::cli_testing {
namespace {

// One line on stderr, in the "gnnpart: error: " form.
void expect_one_line_error(const Result& r) {
  EXPECT_EQ(r.err.rfind("gnnpart: error: ", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

const std::string kCora = GNNPART_SHARED_DIR "/datasets/cora.edges.gz";

TEST(CliObjective, MaxVolumeLowersTheLargestBlockVolumeWithinBudget) {
  TempDir dir;
  const std::string common = "partition " + kCora + " -k 8 --model hypergraph --seed 1 -q ";
  const Result km1 = gnnpart(common + "-o " + dir.file("a.part") + " --json " + dir.file("a.json"));
  ASSERT_EQ(km1.code, 0) << km1.err;
  const Result mv = gnnpart(common + "--objective max-volume -o " + dir.file("b.part") +
                            " --json " + dir.file("b.json"));
  ASSERT_EQ(mv.code, 0) << mv.err;
  const std::string a = slurp(dir.file("a.json")), b = slurp(dir.file("b.json"));
  EXPECT_LT(json_number(b, "max_block_volume"), json_number(a, "max_block_volume"));
  EXPECT_LE(json_number(b, "comm_volume"), 1.05 * json_number(a, "comm_volume"));
  EXPECT_NE(b.find("\"objective\": \"max-volume\""), std::string::npos) << b;
}

// --objective epoch: evaluate --cost (the same model) predicts it no slower than km1's.
TEST(CliObjective, EpochNoSlowerThanKm1ByTheModel) {
  TempDir dir;
  write_file(dir.file("p.json"), kSlowNetworkProfile);
  const std::string common = "partition " + kCora + " -k 8 --model hypergraph --seed 2 -q ";
  const Result km1 = gnnpart(common + "-o " + dir.file("a.part"));
  ASSERT_EQ(km1.code, 0) << km1.err;
  const Result ep = gnnpart(common + "--objective epoch --cost " + dir.file("p.json") +
                            " --feature-dim 256 --hidden 64 -o " + dir.file("b.part"));
  ASSERT_EQ(ep.code, 0) << ep.err;
  const std::string eval = "evaluate " + kCora + " " + dir.file("a.part") + " " +
                           dir.file("b.part") + " -k 8 --cost " + dir.file("p.json") +
                           " --feature-dim 256 --hidden 64 --json";
  const Result ranked = gnnpart(eval);
  ASSERT_EQ(ranked.code, 0) << ranked.err;
  // The ranking lists the faster partition first; a tie keeps the given order.
  const std::size_t a = ranked.out.find("a.part"), b = ranked.out.find("b.part");
  ASSERT_NE(a, std::string::npos) << ranked.out;
  ASSERT_NE(b, std::string::npos) << ranked.out;
  EXPECT_LT(b, a) << ranked.out;
}

TEST(CliObjective, ClearErrors) {
  TempDir dir;
  const std::string out = " -o " + dir.file("x.part");
  for (const auto& [args, says] : std::initializer_list<std::pair<std::string, std::string>>{
           {"-k 4 --objective max-volume", "--model hypergraph"},
           {"-k 4 --model stochastic --objective max-volume", "--model hypergraph"},
           {"-k 4 --model hypergraph --objective epoch", "--cost"},
           {"-k 4 --model hypergraph --cost p.json", "--objective epoch"}}) {
    SCOPED_TRACE(args);
    const Result r = gnnpart("partition " + kCora + " " + args + out);
    EXPECT_NE(r.code, 0);
    expect_one_line_error(r);
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  const Result hgr = gnnpart(
      "partition " GNNPART_SHARED_DIR "/datasets/ibm01.hgr.gz -k 4 --objective max-volume" + out);
  EXPECT_NE(hgr.code, 0);
  expect_one_line_error(hgr);
  EXPECT_NE(hgr.err.find("graph input"), std::string::npos) << hgr.err;
  EXPECT_TRUE(dir.entries().empty());
}

} // namespace
} // namespace gnnpart::cli_testing
