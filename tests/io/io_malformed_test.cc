// One malformed fixture per failure kind per reader: the error names the file and exact line.
#include <algorithm>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "core/random.h"
#include "core/types.h"
#include "io/graph_io.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::expect_input_error;
using testing::fixture;

struct Case {
  std::string file;
  std::uint64_t line; // 0: "FILE: message"
  std::string needle;
};

std::string prefix(const Case& c) {
  const std::string path = fixture("malformed/" + c.file);
  return c.line == 0 ? path + ": " : path + ":" + std::to_string(c.line) + ": ";
}

void check_all(const std::vector<Case>& cases,
               const std::function<void(const std::string&)>& read) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    expect_input_error([&] { read(fixture("malformed/" + c.file)); }, prefix(c), c.needle);
  }
}

TEST(IoMalformed, EdgeList) {
  check_all({{"el_non_numeric.el", 3, "expected a target vertex id, found 'x'"},
             {"el_negative.el", 2, "negative"},
             {"el_too_large.el", 4, kWideIdHint},
             {"el_bad_weight.el", 2, "integer edge weight"},
             {"el_zero_weight.el", 1, "must be positive"},
             {"el_extra_column.el", 3, "fourth column"},
             {"el_missing_target.el", 4, "found end of line"},
             {"el_empty.el", 0, "empty input"},
             {"el_only_comments.el", 0, "empty input"},
             {"el_truncated.edges.gz", 0, "truncated gzip stream"},
             {"el_corrupt.edges.gz", 0, "corrupt gzip stream"}},
            [](const std::string& path) {
              ReadOptions options;
              options.format = GraphFormat::kEdgeList;
              read_graph(path, options);
            });
}

TEST(IoMalformed, EdgeListOneBasedZero) {
  ReadOptions options;
  options.one_based = true;
  const Case c{"el_one_based_zero.el", 2, "vertex id 0 in a 1-based edge list"};
  expect_input_error([&] { read_edge_list(fixture("malformed/" + c.file), options); }, prefix(c),
                     c.needle);
}

TEST(IoMalformed, Metis) {
  const std::vector<Case> cases{
      {"metis_too_few_lines.graph", 5, "declares n = 4 vertices but the file has 3"},
      {"metis_edge_count.graph", 3, "m = 3 edges but the adjacency lists hold 4"},
      {"metis_neighbour_range.graph", 4, "out of range 1..3"},
      {"metis_self_loop.graph", 3, "vertex 2 has a self loop"},
      {"metis_asymmetric.graph", 4, "asymmetric adjacency: vertex 2 lists 3"},
      {"metis_weight_asymmetric.graph", 3, "different edge weight"},
      {"metis_duplicate.graph", 2, "more than once"},
      {"metis_non_numeric.graph", 3, "found 'three'"},
      {"metis_bad_fmt.graph", 1, "fmt code 2 is invalid"},
      {"metis_extra_lines.graph", 4, "more vertex lines than the header's n = 2"},
      {"metis_missing_edge_weight.graph", 3, "an edge weight, found end of line"},
      {"metis_wide.graph", 1, kWideIdHint},
      {"metis_empty.graph", 0, "no METIS header"}};
  // 1 thread parses the rows in file order, 2 in two parts (the second from a line near the
  // middle), 3 and more in parallel chunks (metis_reader.cc): every fixture goes through each.
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    check_all(cases, [threads](const std::string& path) {
      ReadOptions options;
      options.threads = threads;
      read_graph(path, options);
    });
  }
}

// Symmetric random graphs with one entry spoiled (its neighbour or its weight changed, so the
// entry count stays 2m): the reader rejects exactly the asymmetric ones, naming the first
// vertex that a direct search finds, at its line. The reader's check is exact (no hash), so
// every spoiled graph that is asymmetric must fail.
TEST(IoMalformed, MetisAsymmetryMatchesDirectSearch) {
  testing::ScratchDir dir;
  const std::string path = dir.file("spoiled.graph");
  Rng rng(7);
  int rejected = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + rng() % 12;
    const bool weighted = trial % 2 == 1;
    std::vector<std::vector<std::pair<NodeID, Weight>>> lists(n);
    for (NodeID u = 0; u < n; ++u)
      for (NodeID v = u + 1; v < n; ++v)
        if (rng() % 3 == 0) {
          const Weight w = weighted ? static_cast<Weight>(1 + rng() % 3) : 1;
          lists[u].emplace_back(v, w);
          lists[v].emplace_back(u, w);
        }
    std::size_t entries = 0;
    for (const auto& list : lists)
      entries += list.size();
    if (entries == 0)
      continue;
    // Spoil one entry, keeping the list free of self loops and repeats.
    std::size_t pick = rng() % entries, u = 0;
    while (pick >= lists[u].size())
      pick -= lists[u++].size();
    auto& entry = lists[u][pick];
    if (weighted && rng() % 2 == 0) {
      entry.second = 1 + (entry.second + rng() % 2) % 3;
    } else {
      const auto v = static_cast<NodeID>(rng() % n);
      const bool repeats = std::any_of(lists[u].begin(), lists[u].end(),
                                       [&](const auto& x) { return x.first == v; });
      if (v != u && !repeats)
        entry.first = v;
    }
    std::sort(lists[u].begin(), lists[u].end());
    std::string text = std::to_string(n) + " " + std::to_string(entries / 2) +
                       (weighted ? " 001\n" : "\n");
    for (const auto& list : lists) {
      for (const auto& [v, w] : list)
        text += std::to_string(v + 1) + (weighted ? " " + std::to_string(w) + " " : " ");
      text += "\n";
    }
    testing::write_text(path, text);
    // The first vertex with an entry that its neighbour does not return.
    std::size_t bad = n;
    for (std::size_t a = 0; a < n && bad == n; ++a)
      for (const auto& [v, w] : lists[a]) {
        const auto& back = lists[v];
        const bool returned = std::any_of(back.begin(), back.end(), [&](const auto& x) {
          return x.first == a && x.second == w;
        });
        if (!returned) {
          bad = a;
          break;
        }
      }
    SCOPED_TRACE(text);
    if (bad == n) {
      EXPECT_NO_THROW(read_metis(path));
      continue;
    }
    ++rejected;
    expect_input_error([&] { read_metis(path); }, path + ":" + std::to_string(bad + 2) + ": ",
                       "asymmetric adjacency: vertex " + std::to_string(bad + 1) + " lists");
  }
  EXPECT_GT(rejected, 100);
}

TEST(IoMalformed, Hmetis) {
  check_all({{"hgr_pin_range.hgr", 4, "pin 7 of net 2 is out of range 1..4"},
             {"hgr_too_few_nets.hgr", 3, "declares 3 nets but the file has 2"},
             {"hgr_non_numeric.hgr", 3, "found 'a'"},
             {"hgr_bad_fmt.hgr", 1, "fmt code 12"},
             {"hgr_extra_lines.hgr", 4, "more lines than the header announces"},
             {"hgr_missing_vertex_weights.hgr", 5, "3 vertex weight lines"},
             {"hgr_zero_net_weight.hgr", 2, "net weight must be positive"}},
            [](const std::string& path) { read_hmetis(path); });
}

TEST(IoMalformed, MatrixMarket) {
  check_all({{"mtx_no_banner.mtx", 1, "banner"},
             {"mtx_not_square.mtx", 3, "not square"},
             {"mtx_too_few.mtx", 4, "nnz = 3"},
             {"mtx_too_many.mtx", 4, "more entries"},
             {"mtx_index_range.mtx", 4, "row index 4 is out of range 1..3"},
             {"mtx_array.mtx", 1, "coordinate"},
             {"mtx_bad_value.mtx", 4, "expected a real value, found 'abc'"},
             {"mtx_bad_integer.mtx", 4, "must be >= 1"}},
            [](const std::string& path) { read_graph(path); });
}

TEST(IoMalformed, Partition) {
  check_all({{"part_short.part", 3, "found 3 lines, expected 4"},
             {"part_long.part", 5, "more lines than expected"},
             {"part_blank_middle.part", 2, "blank line in the middle"},
             {"part_non_numeric.part", 3, "found 'b'"},
             {"part_out_of_range.part", 3, "block id 2 is out of range 0..1"},
             {"part_negative.part", 2, "block id -1 is out of range"}},
            [](const std::string& path) { read_partition(path, 4, 2); });
  const Partition p = read_partition(fixture("malformed/part_trailing_blank.part"), 4);
  EXPECT_EQ(p.k, 2u);
  EXPECT_EQ(p.blocks, (std::vector<BlockID>{0, 1, 1, 0}));
}

TEST(IoMalformed, VertexSetsAndValues) {
  check_all({{"vset_out_of_range.txt", 3, "vertex id 5 is out of range 0..4"},
             {"vset_duplicate.txt", 5, "listed twice"},
             {"vset_non_numeric.txt", 2, "found '2x'"}},
            [](const std::string& path) { read_vertex_set(path, 5); });
  check_all({{"values_short.txt", 3, "found 2 lines, expected 5"},
             {"values_non_numeric.txt", 4, "found 'four'"}},
            [](const std::string& path) { read_vertex_values(path, 5); });
}

TEST(IoMalformed, UnknownFormatAndMissingFile) {
  expect_input_error([] { read_graph(fixture("malformed/unknown.xyz")); },
                     fixture("malformed/unknown.xyz") + ": ", "unknown extension '.xyz'");
  expect_input_error([] { read_graph(fixture("malformed/does_not_exist.el")); },
                     fixture("malformed/does_not_exist.el") + ": ", "cannot open");
}

// Line numbers stay exact when the error sits deep in a multi-chunk input parsed in parallel.
TEST(IoMalformed, ExactLineDeepInsideALargeInput) {
  testing::ScratchDir dir;
  std::string text = "# vertices: 1000\n";
  const std::uint64_t bad_line = 234567;
  for (std::uint64_t line = 2; line <= 300000; ++line) {
    if (line == bad_line)
      text += "17 1e3\n";
    else if (line % 1000 == 0)
      text += "% comment\n";
    else
      text += std::to_string(line % 997) + " " + std::to_string(line % 991) + "\n";
  }
  ASSERT_GT(text.size(), std::size_t{2} << 20); // several parse chunks
  const std::string path = dir.file("big.el");
  testing::write_text(path, text);
  for (int threads : {1, 2}) {
    ReadOptions options;
    options.threads = threads;
    expect_input_error([&] { read_edge_list(path, options); },
                       path + ":" + std::to_string(bad_line) + ": ", "found '1e3'");
  }
}

} // namespace
} // namespace gnnpart::io
