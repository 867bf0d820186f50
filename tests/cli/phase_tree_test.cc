// `-v` prints the phase tree of the multilevel engines (core/timer.h) after partitioning.
#include <string>

#include <gtest/gtest.h>

#include "cli_test_util.h"

namespace gnnpart::cli_testing {
namespace {

const std::string kCora = std::string(GNNPART_SOURCE_DIR) + "/datasets/cora.edges.gz";

// The line of `phase` in the tree, indented by `depth` levels; empty when absent.
std::string phase_line(const std::string& err, const std::string& phase, int depth) {
  std::string needle = "\n";
  needle.append(2 * static_cast<std::size_t>(depth), ' ');
  needle.append(phase);
  needle.append(": ");
  const std::size_t at = err.find(needle);
  if (at == std::string::npos)
    return {};
  return err.substr(at + 1, err.find('\n', at + 1) - at - 1);
}

TEST(PhaseTree, GraphEngineStrongShowsCycleAndVCycles) {
  TempDir dir;
  const Result r =
      gnnpart("-v partition " + kCora + " -k 4 --preset strong -o " + dir.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_NE(r.err.find("phases (wall seconds, x runs):"), std::string::npos) << r.err;
  for (const char* phase : {"coarsen", "initial partition", "uncoarsen"})
    EXPECT_FALSE(phase_line(r.err, phase, 0).empty()) << phase << "\n" << r.err;
  // The strong preset runs 3 V-cycles (partition/multilevel/context.cc).
  EXPECT_NE(phase_line(r.err, "v-cycle", 0).find("(x3)"), std::string::npos) << r.err;
  EXPECT_NE(phase_line(r.err, "uncoarsen", 1).find("(x3)"), std::string::npos) << r.err;
}

TEST(PhaseTree, HypergraphEngineAndQuietRuns) {
  TempDir dir;
  const Result r = gnnpart("-v partition " + kCora + " -k 4 --model hypergraph -o " + dir.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(phase_line(r.err, "v-cycle", 0).empty()) << r.err; // V-cycles on the graph start
  EXPECT_FALSE(phase_line(r.err, "uncoarsen", 1).empty()) << r.err;
  // Each level's refiners under it (hypergraph/refiners.cc).
  EXPECT_FALSE(phase_line(r.err, "input level", 2).empty()) << r.err;
  for (const char* refiner : {"rebalance", "fm", "relaxed fm"})
    EXPECT_FALSE(phase_line(r.err, refiner, 3).empty()) << refiner << "\n" << r.err;
  const Result quiet = gnnpart("partition " + kCora + " -k 4 -o " + dir.file("q"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("phases"), std::string::npos) << quiet.err;
}

} // namespace
} // namespace gnnpart::cli_testing
