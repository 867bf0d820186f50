#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/errors.h"
#include "stream_test_util.h"
#include "streaming/edge_stream.h"
#include "streaming/generator.h"
#include "streaming/stream_source.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

void expect_simple(const GeneratedGraph& g) {
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    ASSERT_LT(g.u(i), g.v(i));
    ASSERT_LT(g.v(i), g.n);
    ASSERT_TRUE(seen.insert(g.edges[i]).second) << "duplicate edge";
  }
}

TEST(Generator, ValidAndDeterministicAcrossThreads) {
  for (const auto kind :
       {GeneratorKind::kRmat, GeneratorKind::kBarabasiAlbert, GeneratorKind::kGeometric}) {
    GeneratorOptions options;
    options.kind = kind;
    options.n = 3000;
    options.m = 15000;
    options.seed = 42;
    options.threads = 1;
    const GeneratedGraph one = generate_graph(options);
    SCOPED_TRACE(std::string(to_string(kind)));
    expect_simple(one);
    EXPECT_EQ(one.n, 3000u);
    if (kind == GeneratorKind::kBarabasiAlbert) {
      const std::uint64_t d = 5;
      EXPECT_EQ(one.edges.size(), d * (d + 1) / 2 + (3000 - d - 1) * d);
    } else {
      EXPECT_EQ(one.edges.size(), 15000u);
    }
    EXPECT_TRUE(std::is_sorted(one.edges.begin(), one.edges.end()));
    options.threads = 2;
    EXPECT_EQ(generate_graph(options).edges, one.edges);
    options.seed = 43;
    EXPECT_NE(generate_graph(options).edges, one.edges);
    options.seed = 42;
    options.shuffle = true;
    GeneratedGraph shuffled = generate_graph(options);
    EXPECT_NE(shuffled.edges, one.edges);
    std::sort(shuffled.edges.begin(), shuffled.edges.end());
    EXPECT_EQ(shuffled.edges, one.edges);
  }
}

TEST(Generator, RmatIsSkewedAndRggIsLocal) {
  GeneratorOptions options;
  options.n = 1 << 12;
  options.m = 40000;
  options.seed = 1;
  const GeneratedGraph rmat = generate_rmat(options);
  std::vector<std::uint32_t> degree(options.n, 0);
  for (std::size_t i = 0; i < rmat.edges.size(); ++i) {
    ++degree[rmat.u(i)];
    ++degree[rmat.v(i)];
  }
  const auto max_degree = *std::max_element(degree.begin(), degree.end());
  EXPECT_GT(max_degree, 10 * 2 * options.m / options.n); // heavy tail
  const GeneratedGraph rgg = generate_geometric(options);
  EXPECT_GT(rgg.radius, 0.0);
  // Ids follow the cell order: most edges join nearby ids.
  std::size_t near = 0;
  for (std::size_t i = 0; i < rgg.edges.size(); ++i)
    near += rgg.v(i) - rgg.u(i) < options.n / 8;
  EXPECT_GT(near, rgg.edges.size() / 2);
}

TEST(Generator, ScrambleIsABijection) {
  for (const int bits : {1, 5, 10}) {
    std::set<std::uint64_t> images;
    for (std::uint64_t x = 0; x < (1u << bits); ++x) {
      const std::uint64_t y = scramble_bits(x, bits, 77);
      ASSERT_LT(y, 1u << bits);
      images.insert(y);
    }
    EXPECT_EQ(images.size(), 1u << bits);
  }
}

TEST(Generator, RejectsImpossibleRequests) {
  GeneratorOptions options;
  options.n = 10;
  options.m = 46;
  EXPECT_THROW(generate_rmat(options), InvalidParameter);
  options.m = 40;
  EXPECT_THROW(generate_geometric(options), InvalidParameter);
  options.n = 1;
  EXPECT_THROW(generate_barabasi_albert(options), InvalidParameter);
}

TEST(Generator, WrittenFormatsReadBack) {
  GeneratorOptions options;
  options.kind = GeneratorKind::kGeometric;
  options.n = 500;
  options.m = 2000;
  const GeneratedGraph g = generate_graph(options);
  Edges edges;
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    edges.push_back({g.u(i), g.v(i)});
  const auto expected = reference_adjacency(g.n, edges);
  for (const auto& [name, format] : std::vector<std::pair<std::string, GeneratedFormat>>{
           {"g.edges", GeneratedFormat::kEdgeList},
           {"g.edges.gz", GeneratedFormat::kEdgeList},
           {"g.bin", GeneratedFormat::kBinary},
           {"g.adj", GeneratedFormat::kAdjacency}}) {
    const std::string path = temp_path(name);
    write_generated(g, path, format, {"test"});
    OpenedVertexStream opened = open_vertex_stream(path);
    EXPECT_EQ(opened.stream->num_nodes(), g.n) << name;
    EXPECT_EQ(read_all(*opened.stream), expected) << name;
    std::filesystem::remove(path);
  }
}

} // namespace
} // namespace gnnpart::streaming
