// A new user's first hour (issue 17): outputs that never clobber special files, are checked
// before the work and never linger after a failure; default outputs in the current directory;
// warnings where a default or an omission decides something; generate's binary stream read by
// every command; the hypergraph model's default balance.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cli_test_util.h"

namespace gnnpart::cli_testing {
namespace {

namespace fs = std::filesystem;
const std::string kSource = GNNPART_SOURCE_DIR;

// A 6 x 6 grid as an edge list: small, connected, every partition easy to check.
std::string grid_edges() {
  SimpleGraph g;
  g.n = 36;
  for (std::uint32_t r = 0; r < 6; ++r) {
    for (std::uint32_t c = 0; c < 6; ++c) {
      const std::uint32_t u = r * 6 + c;
      if (c + 1 < 6)
        g.edges.emplace_back(u, u + 1);
      if (r + 1 < 6)
        g.edges.emplace_back(u, u + 6);
    }
  }
  return to_edge_list(g);
}

// Runs a shell command line; its exit code.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool is_symlink(const std::string& path) {
  struct stat info{};
  return ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
}

class FirstHour : public ::testing::Test {
protected:
  void SetUp() override { write_file(dir_.file("g.txt"), grid_edges()); }
  std::string graph() const { return dir_.file("g.txt"); }
  TempDir dir_;
};

TEST_F(FirstHour, SymlinkOutputReplacesItsTargetAndStaysALink) {
  write_file(dir_.file("target.part"), "old\n");
  fs::create_symlink(dir_.file("target.part"), dir_.file("link.part"));
  const Result r = gnnpart("partition " + graph() + " -k 2 --quiet -o " + dir_.file("link.part"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(is_symlink(dir_.file("link.part")));
  EXPECT_EQ(read_blocks(dir_.file("target.part")).size(), 36u);
}

TEST_F(FirstHour, FifoOutputIsWrittenDirectlyNotReplaced) {
  const std::string fifo = dir_.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int code = shell("cat " + fifo + " > " + dir_.file("got") + " & " + GNNPART_BINARY +
                         " partition " + graph() + " -k 3 --quiet -o " + fifo + "; s=$?; wait; exit $s");
  ASSERT_EQ(code, 0);
  struct stat info{};
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_EQ(read_blocks(dir_.file("got")).size(), 36u);
}

TEST_F(FirstHour, DeviceAndStdoutOutputsAreWrittenDirectly) {
  Result r = gnnpart("partition " + graph() + " -k 2 --quiet -o /dev/null");
  ASSERT_EQ(r.code, 0) << r.err;
  struct stat info{};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  r = gnnpart("partition " + graph() + " -k 2 --quiet -o /dev/stdout");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count_lines(r.out), 36u);
  // Appending through /dev/stdout keeps what the file held: never truncated or renamed over.
  write_file(dir_.file("log"), "first\n");
  ASSERT_EQ(shell(std::string(GNNPART_BINARY) + " partition " + graph() +
                  " -k 2 --quiet -o /dev/stdout >> " + dir_.file("log")),
            0);
  EXPECT_EQ(slurp(dir_.file("log")).rfind("first\n", 0), 0u);
  EXPECT_EQ(count_lines(slurp(dir_.file("log"))), 37u);
}

TEST_F(FirstHour, DirectoryAsOutputIsRefused) {
  fs::create_directory(dir_.file("d"));
  const Result r = gnnpart("partition " + graph() + " -k 2 -o " + dir_.file("d"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_directory(dir_.file("d")));
}

// The output is checked before the input is even read: with both wrong, the output is named.
TEST_F(FirstHour, UnwritableOutputFailsBeforeTheWork) {
  for (const std::string output : {dir_.file("missing/p.part"), dir_.file("g.txt/p.part")}) {
    const Result r = gnnpart("partition " + dir_.file("no-such-input.txt") + " -k 2 -o " + output);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(output), std::string::npos) << r.err;
  }
  for (const std::string command : {"convert " + dir_.file("no-such.txt") + " " +
                                        dir_.file("missing/g.graph"),
                                    "stream " + graph() + " -k 2 -o " + dir_.file("missing/p"),
                                    "generate rmat --vertices 100 --edges 300 -o " +
                                        dir_.file("missing/g.bin")}) {
    const Result r = gnnpart(command);
    EXPECT_EQ(r.code, 1) << command;
    EXPECT_NE(r.err.find("missing/"), std::string::npos) << r.err;
  }
}

// partition --layout: the layout's directory is checked with the partition file; a failure
// leaves neither behind.
TEST_F(FirstHour, FailedLayoutLeavesNoPartitionFile) {
  const Result r = gnnpart("partition " + graph() + " -k 2 -o " + dir_.file("p.part") +
                           " --layout " + dir_.file("missing/layout"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"g.txt"}));
  // A bad --train file fails after the outputs were checked: still nothing written.
  const Result s = gnnpart("partition " + graph() + " -k 2 --model stochastic --train " +
                           dir_.file("no-train.txt") + " -o " + dir_.file("p.part") +
                           " --layout " + dir_.file("layout"));
  EXPECT_EQ(s.code, 1);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"g.txt"}));
  const Result ok = gnnpart("partition " + graph() + " -k 2 --quiet -o " + dir_.file("p.part") +
                            " --layout " + dir_.file("layout"));
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"g.txt", "layout", "p.part"}));
}

TEST_F(FirstHour, DefaultOutputGoesToTheCurrentDirectory) {
  fs::create_directory(dir_.file("work"));
  const int code = shell("cd " + dir_.file("work") + " && " + GNNPART_BINARY + " partition " +
                         graph() + " -k 3 > /dev/null 2> " + dir_.file("work/err"));
  ASSERT_EQ(code, 0);
  EXPECT_EQ(read_blocks(dir_.file("work/g.txt.part.3")).size(), 36u);
  EXPECT_FALSE(fs::exists(dir_.file("g.txt.part.3")));
  EXPECT_NE(slurp(dir_.file("work/err")).find("note: no -o given"), std::string::npos);
}

TEST_F(FirstHour, EvaluateWithoutKWarnsAboutEmptyBlocks) {
  std::string blocks;
  for (int u = 0; u < 36; ++u)
    blocks += u == 35 ? "9\n" : std::to_string(u % 8) + "\n";
  write_file(dir_.file("p"), blocks);
  Result r = gnnpart("evaluate " + graph() + " " + dir_.file("p"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: no -k given: k = 10"), std::string::npos) << r.err;
  r = gnnpart("evaluate " + graph() + " " + dir_.file("p") + " -k 10");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(FirstHour, StochasticModelWithoutTrainingSetWarns) {
  Result r = gnnpart("partition " + graph() + " -k 2 --model stochastic -o " + dir_.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --model stochastic without --train"), std::string::npos);
  write_file(dir_.file("train"), "0\n5\n17\n30\n");
  r = gnnpart("partition " + graph() + " -k 2 --model stochastic --train " + dir_.file("train") +
              " --batch-size 2 -o " + dir_.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST_F(FirstHour, ThreadsDefaultToTheWholeMachine) {
  const Result r = gnnpart("partition " + graph() + " -k 2 --quiet -o " + dir_.file("p") +
                           " --json " + dir_.file("m.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_number(slurp(dir_.file("m.json")), "threads"),
            static_cast<double>(std::max(1u, std::thread::hardware_concurrency())));
}

// generate's binary edge stream is a graph every command reads, and the same graph as the
// edge list generate writes for the same seed.
TEST_F(FirstHour, GeneratedBinaryStreamReadsEverywhere) {
  const std::string gen = "generate rmat --vertices 2000 --edges 9000 --seed 3 --quiet -o ";
  ASSERT_EQ(gnnpart(gen + dir_.file("g.bin")).code, 0);
  ASSERT_EQ(gnnpart(gen + dir_.file("g.el")).code, 0);
  for (const std::string name : {"g.bin", "g.el"}) {
    const Result r = gnnpart("partition " + dir_.file(name) + " -k 4 -t 1 --quiet -o " +
                             dir_.file(name + ".part"));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(slurp(dir_.file("g.bin.part")), slurp(dir_.file("g.el.part")));
  // info: the same figures after the first line (which names the file).
  const auto figures = [](const std::string& text) { return text.substr(text.find('\n')); };
  const Result info = gnnpart("info " + dir_.file("g.bin"));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_EQ(figures(gnnpart("info " + dir_.file("g.el")).out), figures(info.out));
  const Result bin = gnnpart("evaluate " + dir_.file("g.bin") + " " + dir_.file("g.bin.part") +
                             " --json");
  const Result el = gnnpart("evaluate " + dir_.file("g.el") + " " + dir_.file("g.bin.part") +
                            " --json");
  ASSERT_EQ(bin.code, 0) << bin.err;
  EXPECT_EQ(json_number(bin.out, "comm_volume"), json_number(el.out, "comm_volume"));
  EXPECT_EQ(json_number(bin.out, "m"), json_number(el.out, "m"));
  ASSERT_EQ(gnnpart("convert " + dir_.file("g.bin") + " " + dir_.file("g.graph")).code, 0);
  ASSERT_EQ(gnnpart("layout " + dir_.file("g.bin") + " " + dir_.file("g.bin.part") + " -o " +
                    dir_.file("layout"))
                .code,
            0);
  // A truncated stream is an input error naming the file, not a crash.
  const std::string bytes = slurp(dir_.file("g.bin"));
  write_file(dir_.file("cut.bin"), bytes.substr(0, bytes.size() - 3));
  const Result cut = gnnpart("info " + dir_.file("cut.bin"));
  EXPECT_EQ(cut.code, 1);
  EXPECT_NE(cut.err.find("cut.bin"), std::string::npos) << cut.err;
}

// The hypergraph model with default flags keeps every block's vertex count within epsilon,
// also on a graph with hubs (PubMed), where degree-weighted balance used not to.
TEST(FirstHourBalance, HypergraphModelDefaultBalancesVertexCounts) {
  TempDir dir;
  const std::string pubmed = kSource + "/datasets/pubmed.edges.gz";
  const Result r = gnnpart("partition " + pubmed + " -k 8 --model hypergraph --preset fast " +
                           "--quiet -o " + dir.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::uint32_t> blocks = read_blocks(dir.file("p"));
  std::vector<std::int64_t> sizes(8, 0);
  for (const std::uint32_t b : blocks) {
    ASSERT_LT(b, 8u);
    ++sizes[b];
  }
  const std::int64_t bound = balance_bound(static_cast<std::int64_t>(blocks.size()), 8, 0.03);
  for (const std::int64_t size : sizes) {
    EXPECT_GT(size, 0);
    EXPECT_LE(size, bound);
  }
}

} // namespace
} // namespace gnnpart::cli_testing
