#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <zlib.h>

#include "core/errors.h"
#include "core/random.h"
#include "stream_test_util.h"
#include "streaming/adjacency_writer.h"
#include "streaming/binary_format.h"
#include "streaming/binary_stream_header.h"
#include "streaming/file_source.h"
#include "streaming/edge_stream.h"
#include "streaming/external_sort.h"
#include "streaming/stream_source.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

TEST(RadixSort, MatchesStdSort) {
  Rng rng(3);
  for (const std::size_t size : {0u, 1u, 63u, 64u, 1000u, 50000u}) {
    std::vector<std::uint64_t> keys(size), scratch;
    for (auto& key : keys)
      key = (rng.below(1 << 20) << 32) | rng.below(1 << 20);
    auto expected = keys;
    std::sort(expected.begin(), expected.end());
    radix_sort(keys, scratch);
    ASSERT_EQ(keys, expected) << size;
  }
}

// Duplicates, reversed duplicates and self loops in random order.
Edges messy_edges(NodeID n, std::size_t count, std::uint64_t seed) {
  Edges edges = random_edges(n, count, seed);
  Rng rng(seed + 1);
  const std::size_t base = edges.size();
  for (std::size_t i = 0; i < base / 5; ++i) {
    const auto [u, v] = edges[rng.below(base)];
    edges.push_back(rng.coin() ? std::pair{v, u} : std::pair{u, v});
  }
  edges.push_back({5, 5});
  std::shuffle(edges.begin(), edges.end(), rng);
  return edges;
}

TEST(ExternalSort, ManyRunsMatchInMemoryReference) {
  const NodeID n = 3000;
  const Edges edges = messy_edges(n, 20000, 11);
  const std::string input = temp_path("in.edges");
  write_text(input, edge_list_text(n + 7, edges)); // 7 trailing isolated vertices
  for (const std::size_t memory : {std::size_t{1} << 16, std::size_t{64} << 20}) {
    VertexStreamOptions options;
    options.sort.memory_bytes = memory; // 64 KiB: 4096 keys per run -> about 12 runs
    options.sort.temp_dir = ::testing::TempDir();
    OpenedVertexStream opened = open_vertex_stream(input, options);
    ASSERT_TRUE(opened.sorted);
    if (memory < (1 << 20)) {
      EXPECT_GT(opened.sort_stats.runs, 5u);
    } else {
      EXPECT_EQ(opened.sort_stats.runs, 0u);
    }
    EXPECT_EQ(opened.sort_stats.self_loops, 1u);
    EXPECT_EQ(opened.stream->num_nodes(), n + 7);
    const auto expected = reference_adjacency(n + 7, edges);
    EXPECT_EQ(read_all(*opened.stream), expected);
    // A second pass gives the same lists.
    EXPECT_EQ(read_all(*opened.stream), expected);
    std::uint64_t entries = 0;
    for (const auto& list : expected)
      entries += list.size();
    EXPECT_EQ(opened.stream->num_edges(), entries / 2);
  }
  std::filesystem::remove(input);
}

TEST(ExternalSort, TemporaryFilesAreRemoved) {
  const std::string dir = ::testing::TempDir() + "gnnpart_sort_cleanup";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string input = temp_path("in.edges");
  write_text(input, edge_list_text(500, random_edges(500, 3000, 2)));
  {
    VertexStreamOptions options;
    options.sort.memory_bytes = 1 << 15;
    options.sort.temp_dir = dir;
    OpenedVertexStream opened = open_vertex_stream(input, options);
    EXPECT_GT(opened.sort_stats.runs, 1u);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                            std::filesystem::directory_iterator()),
              1); // only the adjacency stream, the runs are gone
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(EdgeStream, TextGzipBinaryAndMetisAgree) {
  const Edges edges = random_edges(200, 900, 5);
  const std::string text = temp_path("g.edges");
  write_text(text, edge_list_text(200, edges));
  const std::string adjacency = temp_path("g.adj");
  {
    AdjacencySorter sorter({});
    for (const auto& [u, v] : edges)
      sorter.add(u, v);
    sorter.finish(adjacency, 200);
  }
  // METIS text of the same graph.
  const auto lists = reference_adjacency(200, edges);
  std::string metis = "% comment\n200 " + std::to_string(edges.size()) + "\n";
  for (const auto& list : lists) {
    for (std::size_t i = 0; i < list.size(); ++i)
      metis += (i ? " " : "") + std::to_string(list[i] + 1);
    metis += "\n";
  }
  const std::string metis_path = temp_path("g.graph");
  write_text(metis_path, metis);
  for (const std::string& path : {text, adjacency, metis_path}) {
    auto stream = open_edge_stream(path, StreamFormat::kAuto, false, 77);
    Edges got;
    EdgeBatch batch;
    for (int pass = 0; pass < 2; ++pass) {
      got.clear();
      stream->begin_pass();
      while (stream->next_batch(batch)) {
        ASSERT_LE(batch.size(), 77u);
        for (std::size_t i = 0; i < batch.size(); ++i)
          got.push_back({batch.sources[i], batch.targets[i]});
      }
      stream->end_pass();
      EXPECT_EQ(stream->num_nodes(), 200u) << path;
      EXPECT_EQ(stream->num_edges(), edges.size()) << path;
    }
    if (path == text) {
      EXPECT_EQ(got, edges); // file order
    } else {
      Edges sorted = edges;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(got, sorted) << path; // u < v in vertex order
    }
    OpenedVertexStream opened = open_vertex_stream(path);
    EXPECT_EQ(read_all(*opened.stream), lists) << path;
  }
}

template <typename F>
void expect_input_error(F&& f, const std::string& file, std::uint64_t line,
                        const std::string& fragment) {
  try {
    f();
    FAIL() << "no InputError for " << fragment;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

void drain(EdgeStream& stream) {
  EdgeBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
  }
  stream.end_pass();
}

// The streams read through io's grammar: the same messages as the whole-file readers.
TEST(EdgeStream, MalformedLinesNameFileAndLine) {
  const std::string path = temp_path("bad.edges");
  write_text(path, "# vertices: 10\n0 1\n2 x\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 3,
                     "expected a target vertex id, found 'x'");
  write_text(path, "# vertices: 10\n0 1\n\n3 -4\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 4, "is negative: '-4'");
  write_text(path, "0 1\n1 99999999999\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 2, "32-bit id range");
  write_text(path, "0 1\n1 2 -5\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 2,
                     "edge weight must be positive, found -5");
  write_text(path, "0 1\n7\n");
  expect_input_error([&] { open_vertex_stream(path); }, path, 2, "found end of line");
}

// "# vertices: N" (or SNAP's "# Nodes: N") is a lower bound, as in the whole-file reader: a
// larger id still counts.
TEST(EdgeStream, VertexCountHeaderIsALowerBound) {
  const std::string path = temp_path("nodes.edges");
  write_text(path, "# Nodes: 10 Edges: 2\n0 1\n3 4\n");
  auto stream = open_edge_stream(path);
  drain(*stream);
  EXPECT_EQ(stream->num_nodes(), 10u);
  write_text(path, "# vertices: 10\n0 1\n3 10\n");
  stream = open_edge_stream(path);
  drain(*stream);
  EXPECT_EQ(stream->num_nodes(), 11u);
}

TEST(VertexStream, MalformedMetis) {
  const std::string path = temp_path("bad.graph");
  write_text(path, "3 2\n2\n1 3\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 3,
                     "header declares n = 3 vertices but the file has 2 vertex lines");
  write_text(path, "3 2\n2\n1 4\n2\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 3, "is out of range 1..3");
  write_text(path, "3 5\n2\n1 3\n2\n");
  expect_input_error([&] { drain(*open_edge_stream(path)); }, path, 1, "declares m = 5 edges");
  write_text(path, "x y\n");
  expect_input_error([&] { open_edge_stream(path); }, path, 1, "header: expected the vertex count n");
}

TEST(VertexStream, TruncatedBinaryStream) {
  const std::string path = temp_path("g.adj");
  {
    AdjacencySorter sorter({});
    for (const auto& [u, v] : random_edges(50, 200, 9))
      sorter.add(u, v);
    sorter.finish(path, 50);
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 8);
  // Found when opened: the header must match the file size.
  expect_input_error([&] { read_all(*open_binary_adjacency_stream(path)); }, path, 0,
                     "does not match 50 vertices");
}

// Both binary readers start with one header check (streaming/binary_stream_header.h): it
// refuses the other kind's file and a gzipped file, naming the file at line 0. (`open_edge_stream`
// reads an adjacency stream too, so the edge kind's refusal is checked on the check itself.)
TEST(BinaryStreams, HeaderCheckRefusesTheOtherKindAndGzip) {
  const auto header_bytes = [](BinaryKind kind) {
    BinaryHeader header;
    header.kind = kind;
    header.n = 4;
    std::string bytes(kBinaryHeaderBytes, '\0');
    encode_header(header, bytes.data());
    return bytes;
  };
  const std::string edges = temp_path("kind.edges.bin");
  const std::string adjacency = temp_path("kind.adj.bin");
  write_text(edges, header_bytes(BinaryKind::kEdgeStream));
  write_text(adjacency, header_bytes(BinaryKind::kAdjacencyStream));
  const auto check = [](const std::string& path, BinaryKind kind) {
    FileSource source(path);
    return read_binary_stream_header(source, kind);
  };
  EXPECT_EQ(check(edges, BinaryKind::kEdgeStream).n, 4u);
  EXPECT_EQ(check(adjacency, BinaryKind::kAdjacencyStream).n, 4u);
  expect_input_error([&] { check(adjacency, BinaryKind::kEdgeStream); }, adjacency, 0,
                     "not a binary edge stream (bad magic)");
  expect_input_error([&] { check(edges, BinaryKind::kAdjacencyStream); }, edges, 0,
                     "not a binary adjacency stream (bad magic)");
  expect_input_error([&] { open_binary_adjacency_stream(edges); }, edges, 0,
                     "not a binary adjacency stream (bad magic)");

  const std::string gzipped = temp_path("kind.bin.gz");
  const std::string bytes = header_bytes(BinaryKind::kEdgeStream);
  gzFile gz = gzopen(gzipped.c_str(), "wb");
  gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(gz);
  expect_input_error([&] { check(gzipped, BinaryKind::kEdgeStream); }, gzipped, 0,
                     "binary streams cannot be gzipped");
  expect_input_error([&] { open_edge_stream(gzipped, StreamFormat::kBinary); }, gzipped, 0,
                     "binary streams cannot be gzipped");
  expect_input_error([&] { open_binary_adjacency_stream(gzipped); }, gzipped, 0,
                     "binary streams cannot be gzipped");
}

} // namespace
} // namespace gnnpart::streaming
