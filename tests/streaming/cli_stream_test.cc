// Black-box tests of `gnnpart stream` and `gnnpart generate`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "stream_test_util.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

struct CliRun {
  int status;
  std::string out;
  std::string err;
};

CliRun run_command(const std::string& command_line) {
  const std::string err_path = temp_path("stderr.txt");
  const std::string command = command_line + " 2>" + err_path;
  CliRun result;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    result.out.append(buffer, got);
  result.status = ::pclose(pipe);
  result.err = test_files::read_text(err_path);
  return result;
}

CliRun run_cli(const std::string& args) {
  return run_command(std::string(GNNPART_BINARY) + " " + args);
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

TEST(CliStream, GenerateThenPartitionEveryAlgorithm) {
  const std::string graph = temp_path("g.edges");
  CliRun gen = run_cli("generate rmat --vertices 2000 --edges 10000 --seed 3 -o " + graph);
  ASSERT_EQ(gen.status, 0) << gen.err;
  const auto edge_lines = lines_of(graph);
  ASSERT_EQ(edge_lines[1], "# vertices: 2000");
  std::size_t edges = 0;
  for (const auto& line : edge_lines)
    edges += !line.empty() && line[0] != '#';
  ASSERT_EQ(edges, 10000u);
  for (const std::string algo : {"ldg", "fennel", "buffered"}) {
    const std::string out = temp_path(algo + ".part");
    CliRun r = run_cli("stream " + graph + " -k 8 --algo " + algo +
                       " --passes 2 --memory-limit 1 -o " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("comm volume"), std::string::npos);
    const auto blocks = lines_of(out);
    ASSERT_EQ(blocks.size(), 2000u);
    for (const auto& b : blocks)
      EXPECT_LT(std::stoul(b), 8u);
    if (std::string(EVALPART_BINARY).empty())
      continue;
    // The independent checker agrees with the printed cut.
    CliRun eval = run_command(std::string(EVALPART_BINARY) + " -k 8 " + graph + " " + out);
    ASSERT_EQ(eval.status, 0) << eval.err;
    CliRun json =
        run_cli("stream " + graph + " -k 8 --algo " + algo + " --passes 2 --json -o " + out);
    const auto cut_of = [](const std::string& text) {
      const auto pos = text.find("\"edge_cut\": ");
      return text.substr(pos + 12, text.find_first_of(",}", pos) - pos - 12);
    };
    EXPECT_EQ(cut_of(json.out), cut_of(eval.out)) << json.out << eval.out;
  }
  for (const std::string algo : {"hdrf", "dbh", "2ps"}) {
    const std::string out = temp_path(algo + ".epart");
    CliRun r = run_cli("stream " + graph + " -k 8 --algo " + algo + " -o " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("replication factor"), std::string::npos);
    EXPECT_EQ(lines_of(out).size(), 10000u);
  }
}

TEST(CliStream, BadInputFailsWithFileLineAndNoOutput) {
  const std::string graph = temp_path("bad.edges");
  write_text(graph, "# vertices: 5\n0 1\n1 2\n2 three\n");
  for (const std::string algo : {"fennel", "hdrf"}) {
    const std::string out = temp_path("bad.part");
    CliRun r = run_cli("stream " + graph + " -k 2 --algo " + algo + " -o " + out);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find(graph + ":4:"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    // No temporary output left beside the target either.
    for (const auto& entry : std::filesystem::directory_iterator(::testing::TempDir())) {
      EXPECT_EQ(entry.path().string().find(out + ".tmp"), std::string::npos);
    }
  }
  CliRun r = run_cli("stream " + graph + " -k 0");
  EXPECT_NE(r.status, 0);
}

TEST(CliStream, SortedEdgeListStreamsWithoutSorting) {
  // The same graph as a SNAP-style list (each edge once) and as a list sorted by source with
  // both directions: --sorted reads the second as it is and gets the same partition.
  const auto adjacency = reference_adjacency(400, random_edges(400, 1500, 8));
  Edges once;
  std::string sorted = "# vertices: 400\n";
  for (NodeID u = 0; u < adjacency.size(); ++u)
    for (const NodeID v : adjacency[u]) {
      sorted += std::to_string(u) + " " + std::to_string(v) + "\n";
      if (u < v)
        once.push_back({u, v});
    }
  const std::string snap = temp_path("once.edges");
  const std::string both = temp_path("both.edges");
  write_text(snap, edge_list_text(400, once));
  write_text(both, sorted);
  const std::string out_sorted = temp_path("sorted.part");
  const std::string out_direct = temp_path("direct.part");
  CliRun a = run_cli("stream " + snap + " -k 4 --algo fennel -o " + out_sorted);
  ASSERT_EQ(a.status, 0) << a.err;
  CliRun b = run_cli("stream " + both + " -k 4 --algo fennel --sorted --json -o " + out_direct);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.out.find("\"sort_seconds\": 0.0"), std::string::npos) << b.out;
  EXPECT_EQ(lines_of(out_sorted), lines_of(out_direct));

  // An unsorted file under --sorted fails on its line, without output.
  const std::string out_bad = temp_path("bad.part");
  CliRun c = run_cli("stream " + snap + " -k 4 --algo fennel --sorted -o " + out_bad);
  EXPECT_NE(c.status, 0);
  EXPECT_NE(c.err.find("not"), std::string::npos) << c.err;
  EXPECT_FALSE(std::filesystem::exists(out_bad));
}

} // namespace
} // namespace gnnpart::streaming
