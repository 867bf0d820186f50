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
  std::ifstream err(err_path);
  result.err.assign(std::istreambuf_iterator<char>(err), {});
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

} // namespace
} // namespace gnnpart::streaming
