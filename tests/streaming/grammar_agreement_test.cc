// One grammar: every edge-list and METIS fixture gives the whole-file reader (lib/io) and every
// stream over it (edge stream, vertex stream through the external sort, --sorted, METIS) the
// same answer: the same "FILE:LINE: message", or the same vertex count.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "streaming/edge_stream.h"
#include "streaming/stream_source.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

std::string fixture_dir(const std::string& sub) {
  return std::string(GNNPART_SOURCE_DIR) + "/tests/fixtures/" + sub + "/";
}

// "error: FILE:LINE: message" or "n = N" (the outcome a path gives).
std::string outcome(const std::function<std::uint64_t()>& read) {
  try {
    return "n = " + std::to_string(read());
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// One pass over an edge or vertex stream; its vertex count.
template <typename Batch, typename Stream> std::uint64_t drain(Stream& stream) {
  Batch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
  }
  stream.end_pass();
  return stream.num_nodes();
}
std::uint64_t drain_edges(EdgeStream& stream) { return drain<EdgeBatch>(stream); }
std::uint64_t drain_vertices(VertexStream& stream) { return drain<VertexBatch>(stream); }

std::vector<std::string> fixtures_with_prefix(const std::string& sub, const std::string& prefix) {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(fixture_dir(sub)))
    if (entry.path().filename().string().starts_with(prefix))
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(GrammarAgreement, EdgeListFixtures) {
  std::vector<std::string> paths = fixtures_with_prefix("malformed", "el_");
  for (const std::string& p : fixtures_with_prefix("tiny", "tiny"))
    if (p.ends_with(".el") || p.ends_with(".edges") || p.ends_with(".edges.gz"))
      paths.push_back(p);
  ASSERT_GE(paths.size(), 15u);
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    io::ReadOptions options;
    options.format = io::GraphFormat::kEdgeList;
    options.one_based = path.find("one_based") != std::string::npos ||
                        path.find("1based") != std::string::npos;
    const std::string whole =
        outcome([&] { return io::read_edge_list(path, options).edges.n; });
    EXPECT_EQ(outcome([&] {
                return drain_edges(*open_edge_stream(path, StreamFormat::kEdgeList,
                                                     options.one_based));
              }),
              whole);
    VertexStreamOptions vertex_options;
    vertex_options.format = StreamFormat::kEdgeList;
    vertex_options.one_based = options.one_based;
    vertex_options.sort.temp_dir = ::testing::TempDir();
    EXPECT_EQ(outcome([&] { return drain_vertices(*open_vertex_stream(path, vertex_options).stream); }),
              whole);
    if (whole.starts_with("error")) { // --sorted adds its own checks on valid input
      vertex_options.sorted_input = true;
      EXPECT_EQ(outcome([&] {
                  return drain_vertices(*open_vertex_stream(path, vertex_options).stream);
                }),
                whole);
    }
  }
}

TEST(GrammarAgreement, MetisFixtures) {
  std::vector<std::string> paths = fixtures_with_prefix("malformed", "metis_");
  for (const std::string& p : fixtures_with_prefix("tiny", "tiny"))
    if (p.ends_with(".graph"))
      paths.push_back(p);
  ASSERT_GE(paths.size(), 15u);
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    const std::string whole = outcome([&] { return io::read_metis(path).num_nodes(); });
    EXPECT_EQ(outcome([&] {
                return drain_vertices(*open_vertex_stream(path, VertexStreamOptions{.format = StreamFormat::kMetis}).stream);
              }),
              whole);
    EXPECT_EQ(outcome([&] { return drain_edges(*open_edge_stream(path, StreamFormat::kMetis)); }),
              whole);
  }
}

} // namespace
} // namespace gnnpart::streaming
