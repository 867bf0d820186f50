// The malformed-fixture matrix: every fixture of tests/fixtures/malformed runs through every
// command that reads its format (partition, stream with each algorithm family and --sorted,
// convert, evaluate, info). Each must print the reader's own "FILE:LINE: message" (as lib/io
// throws it) as its one stderr line, exit 1, and leave no output behind.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_test_util.h"
#include "core/errors.h"
#include "io/graph_io.h"

namespace gnnpart::cli_testing {
namespace {

const std::string kFixtures = std::string(GNNPART_SOURCE_DIR) + "/tests/fixtures/malformed/";

std::vector<std::string> fixtures_with(std::initializer_list<const char*> prefixes) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kFixtures)) {
    const std::string name = entry.path().filename();
    for (const char* prefix : prefixes)
      if (name.starts_with(prefix) && name != "part_trailing_blank.part") // that one is valid
        names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string id = info.param;
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return id;
}

// Each command: exit 1, the reader's message as the one stderr line, nothing written (the
// input's directory holds only the input, the output directory only `out_entries`).
void expect_reader_message(const std::vector<std::string>& commands, const std::string& expected,
                           const TempDir& in, const std::string& name, const TempDir& out,
                           const std::vector<std::string>& out_entries) {
  ASSERT_FALSE(expected.empty()) << name << " is read without error";
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    // --quiet: a read that takes over a second (sanitizers on a busy machine) would announce
    // itself with a progress line; the error line must be the only thing left.
    const Result r = gnnpart("--quiet " + command);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "gnnpart: error: " + expected + "\n");
    EXPECT_EQ(in.entries(), std::vector<std::string>{name});
    EXPECT_EQ(out.entries(), out_entries);
  }
}

bool one_based(const std::string& name) { return name.find("one_based") != std::string::npos; }

// The message lib/io gives for the file, read the way `partition` reads it.
std::string reader_message(const std::string& path, const std::string& name) {
  try {
    io::ReadOptions options;
    options.one_based = one_based(name);
    if (name.starts_with("hgr_"))
      io::read_hmetis(path, options);
    else
      io::read_graph(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class MalformedMatrix : public ::testing::TestWithParam<std::string> {};

TEST_P(MalformedMatrix, EveryPathGivesTheReadersMessage) {
  const std::string name = GetParam();
  TempDir in, out;
  const std::string input = in.file(name);
  fs::copy_file(kFixtures + name, input);
  const std::string expected = reader_message(input, name);
  const std::string partition_file = out.file("p.part");
  write_file(partition_file, "0\n1\n0\n1\n");
  const std::string flags = one_based(name) ? " --one-based" : "";

  std::vector<std::string> commands{
      "partition " + input + " -k 2" + flags + " -o " + out.file("out.part"),
      "evaluate " + input + " " + partition_file + flags,
  };
  if (!name.starts_with("hgr_")) { // info and convert read graphs only
    commands.push_back("info " + input + flags);
    commands.push_back("convert " + input + " " + out.file("out.graph") + flags);
  }
  if (name.starts_with("el_") || name.starts_with("metis_") || name.starts_with("unknown")) {
    for (const char* algo : {"ldg", "fennel", "buffered", "hdrf", "dbh", "2ps"})
      commands.push_back("stream " + input + " -k 2 --algo " + std::string(algo) + flags +
                         " --temp-dir " + out.file("") + " -o " + out.file("out.part"));
    if (name.starts_with("el_"))
      commands.push_back("stream " + input + " -k 2 --algo ldg --sorted" + flags + " -o " +
                         out.file("out.part"));
  }
  expect_reader_message(commands, expected, in, name, out, {"p.part"});
}

INSTANTIATE_TEST_SUITE_P(Fixtures, MalformedMatrix,
                         ::testing::ValuesIn(fixtures_with({"el_", "metis_", "mtx_", "hgr_",
                                                            "unknown"})),
                         param_name);

// Partition files (read with n = 4, k = 2), vertex sets and value lines (n = 5) through every
// command that reads them beside a good graph.
class MalformedSideInputs : public ::testing::TestWithParam<std::string> {};

TEST_P(MalformedSideInputs, EveryPathGivesTheReadersMessage) {
  const std::string name = GetParam();
  TempDir in, out;
  const std::string input = in.file(name);
  fs::copy_file(kFixtures + name, input);
  const std::string graph4 = out.file("g4.el"), graph5 = out.file("g5.el");
  const std::string part5 = out.file("g5.part");
  write_file(graph4, "# vertices: 4\n0 1\n2 3\n");
  write_file(graph5, "# vertices: 5\n0 1\n2 3\n3 4\n");
  write_file(part5, "0\n0\n1\n1\n1\n");
  const std::vector<std::string> inputs{"g4.el", "g5.el", "g5.part"};
  std::string expected;
  std::vector<std::string> commands;
  try {
    if (name.starts_with("part_")) {
      commands = {"evaluate " + graph4 + " " + input + " -k 2",
                  "layout " + graph4 + " " + input + " -k 2 -o " + out.file("lay")};
      io::read_partition(input, 4, 2);
    } else if (name.starts_with("vset_")) {
      commands = {"partition " + graph5 + " -k 2 --balance-set " + input + " -o " + out.file("p"),
                  "stream " + graph5 + " -k 2 --batch-size 2 --train " + input + " -o " + out.file("p"),
                  "layout " + graph5 + " " + part5 + " --train " + input + " -o " + out.file("lay")};
      io::read_vertex_set(input, 5);
    } else {
      commands = {"partition " + graph5 + " -k 2 --vertex-weights " + input + " -o " + out.file("p"),
                  "evaluate " + graph5 + " " + part5 + " --vertex-weights " + input};
      io::read_vertex_values(input, 5);
    }
  } catch (const InputError& e) {
    expected = e.what();
  }
  expect_reader_message(commands, expected, in, name, out, inputs);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, MalformedSideInputs,
                         ::testing::ValuesIn(fixtures_with({"part_", "vset_", "values_"})),
                         param_name);

} // namespace
} // namespace gnnpart::cli_testing
