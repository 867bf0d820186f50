// End-to-end tests of the gnnpart binary: exit codes, one-line errors, no partial outputs,
// partitions checked by recomputing their metrics and balance here, agreement with evalpart.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_test_util.h"
#include "core/random.h"

namespace gnnpart::cli_testing {
namespace {

const std::string kSource = GNNPART_SOURCE_DIR;

SimpleGraph random_graph(std::uint32_t n, std::uint32_t isolated, std::size_t m,
                         std::uint64_t seed) {
  Rng rng(seed);
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  const std::uint32_t connected = n - isolated; // the last `isolated` ids have no edge
  while (edges.size() < m) {
    std::uint32_t u = static_cast<std::uint32_t>(rng.below(connected));
    std::uint32_t v = static_cast<std::uint32_t>(rng.below(connected));
    if (u == v)
      continue;
    if (u > v)
      std::swap(u, v);
    edges.emplace(u, v);
  }
  SimpleGraph g;
  g.n = n;
  g.edges.assign(edges.begin(), edges.end());
  return g;
}

// One line on stderr, in the "gnnpart: error: " form.
void expect_one_line_error(const Result& r) {
  EXPECT_EQ(r.err.rfind("gnnpart: error: ", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

TEST(Cli, HelpAndVersion) {
  Result r = gnnpart("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* word : {"partition", "evaluate", "convert", "info", "Examples", "--quiet"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  r = gnnpart("partition --help");
  EXPECT_EQ(r.code, 0);
  for (const char* word : {"--epsilon", "--algo", "--balance-set", "--vertex-weights", "--seed",
                           "--threads", "--objective", "--preset", "--flows", "Examples"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  r = gnnpart("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("gnnpart ", 0), 0u) << r.out;
}

// main ends the process without running destructors (exit_now): stdout redirected to a file is
// fully buffered, and everything printed must still reach it, up to the last line, through
// stdio (the summary) and through std::cout (CLI11's help).
TEST(Cli, OutputCompleteAtExit) {
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(random_graph(60, 2, 150, 9)));
  const std::string part = dir.file("g.part");
  Result r = gnnpart("partition " + dir.file("g.txt") + " -k 4 -t 1 -o " + part);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string last = "  written to      " + part + "\n";
  ASSERT_GE(r.out.size(), last.size());
  EXPECT_EQ(r.out.substr(r.out.size() - last.size()), last) << r.out;
  EXPECT_EQ(read_blocks(part).size(), 60u);
  r = gnnpart("--help");
  ASSERT_EQ(r.code, 0);
  const std::string footer = "Run 'gnnpart COMMAND --help' for the flags of a command.\n";
  ASSERT_GE(r.out.size(), footer.size());
  EXPECT_EQ(r.out.substr(r.out.size() - footer.size()), footer) << r.out;
  // An error exit also goes through exit_now: one line on stderr.
  r = gnnpart("partition " + dir.file("missing.txt") + " -k 2 -o " + part);
  EXPECT_EQ(r.code, 1);
  expect_one_line_error(r);
}

// Only the command named builds its flags (main.cc); each command's help still lists its own,
// and flags before the command name (-q, -v) still reach it.
TEST(Cli, EveryCommandsHelp) {
  for (const char* command :
       {"partition", "stream", "evaluate", "convert", "info", "layout", "generate", "export"}) {
    SCOPED_TRACE(command);
    const Result r = gnnpart(std::string("-q ") + command + " --help");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(std::string("Usage: gnnpart ") + command), std::string::npos) << r.out;
  }
  const Result help = gnnpart("-v --help");
  EXPECT_EQ(help.code, 0);
  for (const char* command : {"stream", "evaluate", "layout", "generate", "export"})
    EXPECT_NE(help.out.find(command), std::string::npos) << command;
  const Result late = gnnpart("-v --help partition");
  EXPECT_EQ(late.code, 0);
  EXPECT_NE(late.out.find("Usage: gnnpart partition"), std::string::npos) << late.out;
}

// With -v every phase is announced and ends with "done", one after another, on one watcher
// thread for the whole run (support.cc); without it a short run prints nothing on stderr.
TEST(Cli, PhasesAnnouncedWithVerbose) {
  TempDir dir;
  const std::string graph = dir.file("g.txt");
  write_file(graph, to_edge_list(random_graph(200, 0, 800, 3)));
  const Result r = gnnpart("-v partition " + graph + " -k 4 -o " + dir.file("p"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  for (const std::string& line :
       {"gnnpart: reading " + graph + " ...", "gnnpart: reading " + graph + ": done in ",
        std::string("gnnpart: partitioning into 4 blocks"), std::string(": done in "),
        "gnnpart: writing " + dir.file("p") + " ...",
        "gnnpart: writing " + dir.file("p") + ": done in "}) {
    const std::size_t found = r.err.find(line, at);
    ASSERT_NE(found, std::string::npos) << line << "\n" << r.err;
    at = found + line.size();
  }
  const Result quiet = gnnpart("partition " + graph + " -k 4 -o " + dir.file("q"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "") << quiet.err;
}

TEST(Cli, UsageErrorsExitWithTwo) {
  for (const char* args :
       {"", "partition", "frobnicate", "partition g.txt -k 2 --no-such-flag",
        "partition g.txt -k two", "partition g.txt -k 2 --algo magic",
        "partition g.txt -k 2 --epsilon -1", "partition g.txt -k 2 --flows maybe"}) {
    SCOPED_TRACE(args);
    const Result r = gnnpart(args);
    EXPECT_EQ(r.code, 2);
    expect_one_line_error(r);
  }
}

TEST(Cli, UnknownCommandIsNamed) {
  const Result r = gnnpart("partitoin g.txt -k 2");
  EXPECT_EQ(r.code, 2);
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("unknown command 'partitoin'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("partition, stream"), std::string::npos) << r.err;
}

// CLI11 checks required arguments first: without this, "--k is required" hid the typo.
TEST(Cli, UnknownFlagIsNamedBeforeMissingArguments) {
  for (const char* args : {"partition --no-such-flag", "partition g.txt --no-such-flag"}) {
    SCOPED_TRACE(args);
    const Result r = gnnpart(args);
    EXPECT_EQ(r.code, 2);
    expect_one_line_error(r);
    EXPECT_NE(r.err.find("not expected: --no-such-flag"), std::string::npos) << r.err;
  }
  const Result missing = gnnpart("partition g.txt");
  EXPECT_NE(missing.err.find("--k is required"), std::string::npos) << missing.err;
}

class CliFailures : public ::testing::Test {
protected:
  void SetUp() override {
    graph_ = dir_.file("g.txt");
    write_file(graph_, to_edge_list(random_graph(20, 0, 40, 1)));
  }
  // The failed run left nothing but the input behind.
  void expect_clean() { EXPECT_EQ(dir_.entries(), std::vector<std::string>{"g.txt"}); }
  TempDir dir_;
  std::string graph_;
};

TEST_F(CliFailures, KZero) {
  const Result r = gnnpart("partition " + graph_ + " -k 0 --algo metis");
  EXPECT_EQ(r.code, 2);
  expect_one_line_error(r);
  expect_clean();
}

TEST_F(CliFailures, KLargerThanN) {
  const Result r = gnnpart("partition " + graph_ + " -k 21 --algo metis");
  EXPECT_EQ(r.code, 2);
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("exceeds"), std::string::npos) << r.err;
  expect_clean();
}

TEST_F(CliFailures, MissingInput) {
  const Result r = gnnpart("partition " + dir_.file("nope.txt") + " -k 2 --algo metis -o " +
                           dir_.file("out.part"));
  EXPECT_EQ(r.code, 1);
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("nope.txt"), std::string::npos) << r.err;
  expect_clean();
}

TEST_F(CliFailures, InfeasibleBalance) {
  std::string weights;
  for (int u = 0; u < 20; ++u)
    weights += u == 7 ? "100\n" : "1\n";
  write_file(dir_.file("w.txt"), weights);
  const Result r = gnnpart("partition " + graph_ + " -k 4 --algo metis --vertex-weights " +
                           dir_.file("w.txt") + " -o " + dir_.file("out.part"));
  EXPECT_EQ(r.code, 1);
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("vertex 7"), std::string::npos) << r.err;
  std::filesystem::remove(dir_.file("w.txt"));
  expect_clean();
}

TEST_F(CliFailures, BadPartitionFileForEvaluate) {
  write_file(dir_.file("p.part"), "0\n1\nx\n");
  const Result r = gnnpart("evaluate " + graph_ + " " + dir_.file("p.part"));
  EXPECT_EQ(r.code, 1);
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("p.part:"), std::string::npos) << r.err;
}

// The io module's malformed fixtures: one line naming the file and line, exit 1, no output.
TEST(Cli, MalformedInputs) {
  const std::vector<std::pair<std::string, int>> cases{
      {"el_non_numeric.el", 3},         {"el_negative.el", 2},
      {"el_too_large.el", 4},           {"el_bad_weight.el", 2},
      {"el_missing_target.el", 4},      {"el_empty.el", 0},
      {"el_truncated.edges.gz", 0},     {"el_corrupt.edges.gz", 0},
      {"metis_too_few_lines.graph", 5}, {"metis_asymmetric.graph", 4},
      {"metis_non_numeric.graph", 3},   {"metis_self_loop.graph", 3},
      {"mtx_no_banner.mtx", 0}};
  const std::string fixtures = kSource + "/tests/fixtures/malformed/";
  for (const auto& [name, line] : cases) {
    SCOPED_TRACE(name);
    if (!std::filesystem::exists(fixtures + name)) {
      ADD_FAILURE() << "fixture missing: " << fixtures + name;
      continue;
    }
    TempDir dir;
    const std::string input = dir.file(name);
    std::filesystem::copy_file(fixtures + name, input);
    const Result r = gnnpart("partition " + input + " -k 2 --algo metis -o " + dir.file("out"));
    EXPECT_EQ(r.code, 1);
    expect_one_line_error(r);
    if (line > 0) {
      EXPECT_NE(r.err.find(input + ":" + std::to_string(line) + ": "), std::string::npos) << r.err;
    } else {
      EXPECT_NE(r.err.find(input + ":"), std::string::npos) << r.err;
    }
    EXPECT_EQ(dir.entries(), std::vector<std::string>{name});
  }
}

class CliPartition : public ::testing::TestWithParam<std::string> {};

// The written partition is complete, balanced, has no empty block, and the metrics the CLI
// reports equal a plain recomputation from the edge list.
TEST_P(CliPartition, OutputValidatedIndependently) {
  const SimpleGraph g = random_graph(310, 10, 1200, 3);
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(g));
  for (const std::uint32_t k : {2u, 5u, 16u}) {
    SCOPED_TRACE(k);
    const std::string part = dir.file("g.part");
    const Result r =
        gnnpart("partition " + dir.file("g.txt") + " -k " + std::to_string(k) + " " + GetParam() +
                " -e 0.03 --seed 3 -o " + part + " --json " + dir.file("m.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("edge cut"), std::string::npos) << r.out;
    const std::vector<std::uint32_t> blocks = read_blocks(part);
    ASSERT_EQ(blocks.size(), g.n);
    for (const std::uint32_t b : blocks)
      ASSERT_LT(b, k);
    const SimpleMetrics m = simple_metrics(g, blocks, k);
    for (const std::uint64_t size : m.sizes) {
      EXPECT_GT(size, 0u);
      EXPECT_LE(static_cast<std::int64_t>(size), balance_bound(g.n, k, 0.03));
    }
    const std::string json = slurp(dir.file("m.json"));
    EXPECT_EQ(json_number(json, "edge_cut"), m.edge_cut);
    EXPECT_EQ(json_number(json, "comm_volume"), m.comm_volume);
    EXPECT_EQ(json_number(json, "max_send_volume"), m.max_send);
    EXPECT_EQ(json_number(json, "max_recv_volume"), m.max_recv);
    EXPECT_EQ(json_number(json, "n"), g.n);
    EXPECT_EQ(json_number(json, "m"), g.edges.size());
  }
}

// Same seed, same file.
TEST_P(CliPartition, Deterministic) {
  const SimpleGraph g = random_graph(500, 0, 2500, 9);
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(g));
  std::string first;
  for (int run = 0; run < 3; ++run) {
    const Result r = gnnpart("partition " + dir.file("g.txt") + " -k 8 --seed 17 --quiet " +
                             GetParam() + " -o " + dir.file("p" + std::to_string(run)));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << "--quiet printed: " << r.out;
    const std::string text = slurp(dir.file("p" + std::to_string(run)));
    ASSERT_FALSE(text.empty());
    if (run == 0)
      first = text;
    EXPECT_EQ(text, first) << "run " << run;
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CliPartition,
                         ::testing::Values("--algo metis", "--algo multilevel", ""));

// A METIS file's own vertex weights are the balance constraint unless --vertex-weights says
// otherwise: weights 4, 2, 1, 1 on a path, k = 2, eps = 0, so vertex 0 (weight 4) must sit
// alone, while --vertex-weights unit puts 2 + 2 vertices.
TEST(Cli, InputVertexWeightsAreTheDefaultConstraint) {
  TempDir dir;
  write_file(dir.file("w.graph"), "4 3 10\n4 2\n2 1 3\n1 2 4\n1 3\n");
  for (const std::string algo : {"metis", "multilevel"}) {
    SCOPED_TRACE(algo);
    Result r = gnnpart("partition " + dir.file("w.graph") + " -k 2 -e 0 --quiet --algo " + algo +
                       " -o " + dir.file("p"));
    ASSERT_EQ(r.code, 0) << r.err;
    std::vector<std::uint32_t> blocks = read_blocks(dir.file("p"));
    ASSERT_EQ(blocks.size(), 4u);
    const std::vector<int> weight{4, 2, 1, 1};
    int w0 = 0;
    for (int u = 0; u < 4; ++u)
      if (blocks[u] == blocks[0])
        w0 += weight[u];
    EXPECT_EQ(w0, 4);
    r = gnnpart("partition " + dir.file("w.graph") + " -k 2 -e 0 --quiet --vertex-weights unit " +
                "--algo " + algo + " -o " + dir.file("p"));
    ASSERT_EQ(r.code, 0) << r.err;
    blocks = read_blocks(dir.file("p"));
    EXPECT_EQ(std::count(blocks.begin(), blocks.end(), blocks[0]), 2);
  }
}

// Without -o the partition goes to the current directory (run there), not beside the input.
TEST(Cli, DefaultOutputName) {
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(random_graph(40, 0, 100, 4)));
  const Result r = run_program("cd " + dir.file("") + " && " + GNNPART_BINARY,
                               "partition g.txt -k 3 --algo metis --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_blocks(dir.file("g.txt.part.3")).size(), 40u);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"g.txt", "g.txt.part.3"}));
}

// Each block gets its share of the training vertices (a second balance constraint).
TEST(Cli, BalanceSetOnCora) {
  const std::string cora = kSource + "/datasets/cora.edges.gz";
  const std::string train = kSource + "/datasets/cora.train.gz";
  TempDir dir;
  for (const std::string algo : {"metis", "multilevel"}) {
    SCOPED_TRACE(algo);
    const Result r = gnnpart("partition " + cora + " -k 8 --algo " + algo + " --balance-set " +
                             train + " --quiet -o " + dir.file("p"));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::vector<std::uint32_t> blocks = read_blocks(dir.file("p"));
    ASSERT_EQ(blocks.size(), 2708u);
    const Result ids = run_program("gzip", "-dc " + train);
    ASSERT_EQ(ids.code, 0);
    std::vector<std::int64_t> per_block(8, 0), sizes(8, 0);
    std::int64_t total = 0;
    std::istringstream in(ids.out);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#')
        continue;
      ++per_block.at(blocks.at(std::stoul(line)));
      ++total;
    }
    ASSERT_EQ(total, 140);
    for (const std::uint32_t b : blocks)
      ++sizes.at(b);
    for (int b = 0; b < 8; ++b) {
      EXPECT_LE(per_block[b], balance_bound(total, 8, 0.03)) << "block " << b;
      EXPECT_LE(sizes[b], balance_bound(2708, 8, 0.03)) << "block " << b;
    }
  }
}

// gnnpart evaluate --json and evalpart agree key by key.
TEST(Cli, EvaluateMatchesEvalpart) {
  const std::string evalpart = EVALPART_BINARY;
  ASSERT_FALSE(evalpart.empty()) << "evalpart was not built";
  const SimpleGraph g = random_graph(207, 7, 600, 12);
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(g));
  Rng rng(5);
  std::string part;
  for (std::uint32_t u = 0; u < g.n; ++u)
    part += std::to_string(rng.below(6)) + "\n";
  write_file(dir.file("g.part"), part);
  const Result ours = gnnpart("evaluate " + dir.file("g.txt") + " " + dir.file("g.part") +
                              " -k 6 --json --feature-dim 16");
  ASSERT_EQ(ours.code, 0) << ours.err;
  const Result theirs =
      run_program(evalpart, "-k 6 --n 207 " + dir.file("g.txt") + " " + dir.file("g.part"));
  ASSERT_EQ(theirs.code, 0) << theirs.err;
  for (const char* key :
       {"n", "m", "k", "edge_cut", "comm_volume", "max_send_volume", "max_recv_volume",
        "num_comm_pairs", "boundary_vertices", "imbalance_vertices", "empty_blocks"}) {
    const double a = json_number(ours.out, key);
    const double b = json_number(theirs.out, key);
    EXPECT_FALSE(std::isnan(a)) << key;
    EXPECT_NEAR(a, b, 1e-6) << key;
  }
  EXPECT_EQ(json_number(ours.out, "bytes_per_layer"),
            json_number(theirs.out, "comm_volume") * 16 * 4);
}

TEST(Cli, InfoCountsComponents) {
  TempDir dir;
  // Components {0,1,2}, {3,4}, {5}, {6}; vertices 5 and 6 isolated.
  write_file(dir.file("g.txt"), "# vertices: 7\n0 1\n1 2\n3 4\n");
  const Result r = gnnpart("info " + dir.file("g.txt") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "n"), 7);
  EXPECT_EQ(json_number(r.out, "m"), 3);
  EXPECT_EQ(json_number(r.out, "components"), 4);
  EXPECT_EQ(json_number(r.out, "largest_component"), 3);
  EXPECT_EQ(json_number(r.out, "isolated_vertices"), 2);
  EXPECT_EQ(json_number(r.out, "min_degree"), 0);
  EXPECT_EQ(json_number(r.out, "max_degree"), 2);
  const Result text = gnnpart("info " + dir.file("g.txt"));
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("components"), std::string::npos);
}

TEST(Cli, ConvertRoundTrip) {
  const SimpleGraph g = random_graph(60, 3, 150, 21);
  TempDir dir;
  write_file(dir.file("g.txt"), to_edge_list(g));
  Result r = gnnpart("convert " + dir.file("g.txt") + " " + dir.file("g.graph") + " --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  r = gnnpart("info " + dir.file("g.graph") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "n"), 60);
  EXPECT_EQ(json_number(r.out, "m"), 150);
  r = gnnpart("convert " + dir.file("g.txt") + " " + dir.file("g.hgr") + " --column-net --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream hgr(slurp(dir.file("g.hgr")));
  std::string line;
  while (std::getline(hgr, line) && (line.empty() || line[0] == '%')) {
  }
  std::istringstream header(line);
  std::uint64_t nets = 0, vertices = 0;
  header >> nets >> vertices;
  EXPECT_EQ(nets, 60u);
  EXPECT_EQ(vertices, 60u);
  // A failed conversion leaves nothing.
  r = gnnpart("convert " + dir.file("missing.txt") + " " + dir.file("x.graph"));
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.graph")));
}

} // namespace
} // namespace gnnpart::cli_testing
