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

std::vector<std::uint32_t> degrees(const GeneratedGraph& g) {
  std::vector<std::uint32_t> degree(g.n, 0);
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    ++degree[g.u(i)];
    ++degree[g.v(i)];
  }
  return degree;
}

TEST(Generator, MeshesHaveTheGridEdgeCounts) {
  GeneratorOptions options;
  options.kind = GeneratorKind::kMesh;
  options.n = 100; // 10 x 10: 2 * 10 * 9 grid edges + 9 * 9 diagonals
  GeneratedGraph mesh = generate_graph(options);
  expect_simple(mesh);
  EXPECT_EQ(mesh.edges.size(), 2u * 10 * 9 + 9 * 9);
  const auto mesh_degrees = degrees(mesh);
  EXPECT_EQ(*std::max_element(mesh_degrees.begin(), mesh_degrees.end()), 6u);
  options.n = 95; // w = 10, the last row 5 wide
  mesh = generate_graph(options);
  expect_simple(mesh);
  std::size_t horizontal = 9 * 9 + 4, vertical = 8 * 10 + 5, diagonal = 8 * 9 + 4;
  EXPECT_EQ(mesh.edges.size(), horizontal + vertical + diagonal);
  options.kind = GeneratorKind::kGrid3d;
  options.n = 1000; // 10^3: 3 * 10 * 10 * 9 edges, interior degree 6
  const GeneratedGraph grid = generate_graph(options);
  expect_simple(grid);
  EXPECT_EQ(grid.edges.size(), 3u * 10 * 10 * 9);
  const auto grid_degrees = degrees(grid);
  EXPECT_EQ(*std::max_element(grid_degrees.begin(), grid_degrees.end()), 6u);
  EXPECT_EQ(*std::min_element(grid_degrees.begin(), grid_degrees.end()), 3u);
  options.n = 999; // the last layer partial: still connected degrees >= 2 at the corner
  expect_simple(generate_graph(options));
}

TEST(Generator, WebIsSkewedLocalAndDeterministic) {
  GeneratorOptions options;
  options.kind = GeneratorKind::kWeb;
  options.n = 20000;
  options.m = 160000;
  options.seed = 3;
  const GeneratedGraph web = generate_graph(options);
  expect_simple(web);
  EXPECT_LE(web.edges.size(), 160000u);
  EXPECT_GE(web.edges.size(), 100000u);
  const auto degree = degrees(web);
  const std::size_t average = 2 * web.edges.size() / web.n;
  EXPECT_GT(*std::max_element(degree.begin(), degree.end()), 10 * average); // heavy tail
  // Host-local links: most edges join pages less than a host apart.
  std::size_t near = 0;
  for (std::size_t i = 0; i < web.edges.size(); ++i)
    near += web.v(i) - web.u(i) < options.n / 16;
  EXPECT_GT(near, web.edges.size() * 3 / 4);
  EXPECT_EQ(generate_graph(options).edges, web.edges);
  options.seed = 4;
  EXPECT_NE(generate_graph(options).edges, web.edges);
}

TEST(Generator, RelabelIsASeededPermutation) {
  const std::vector<NodeID> p = random_permutation(1000, 5);
  std::vector<NodeID> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (NodeID v = 0; v < 1000; ++v)
    ASSERT_EQ(sorted[v], v);
  EXPECT_EQ(random_permutation(1000, 5), p);
  EXPECT_NE(random_permutation(1000, 6), p);
  std::size_t fixed_points = 0;
  for (NodeID v = 0; v < 1000; ++v)
    fixed_points += p[v] == v;
  EXPECT_LT(fixed_points, 10u);

  for (const auto kind : {GeneratorKind::kMesh, GeneratorKind::kGeometric, GeneratorKind::kWeb}) {
    SCOPED_TRACE(std::string(to_string(kind)));
    GeneratorOptions options;
    options.kind = kind;
    options.n = 2000;
    options.m = 8000;
    options.seed = 9;
    const GeneratedGraph plain = generate_graph(options);
    options.relabel = true;
    const GeneratedGraph relabelled = generate_graph(options);
    expect_simple(relabelled);
    EXPECT_TRUE(std::is_sorted(relabelled.edges.begin(), relabelled.edges.end()));
    // Exactly the plain graph's edges under random_permutation(n, seed).
    const std::vector<NodeID> q = random_permutation(options.n, options.seed);
    std::vector<std::uint64_t> mapped;
    for (std::size_t i = 0; i < plain.edges.size(); ++i) {
      const NodeID u = q[plain.u(i)], v = q[plain.v(i)];
      mapped.push_back((static_cast<std::uint64_t>(std::min(u, v)) << 32) | std::max(u, v));
    }
    std::sort(mapped.begin(), mapped.end());
    EXPECT_EQ(relabelled.edges, mapped);
    EXPECT_EQ(generate_graph(options).edges, relabelled.edges);
  }
}

TEST(Generator, HubDegreeAddsOneHub) {
  GeneratorOptions options;
  options.kind = GeneratorKind::kMesh;
  options.n = 2500;
  const std::size_t plain = generate_graph(options).edges.size();
  options.hub_degree = 300;
  options.seed = 2;
  const GeneratedGraph hub = generate_graph(options);
  expect_simple(hub);
  EXPECT_TRUE(std::is_sorted(hub.edges.begin(), hub.edges.end()));
  const auto degree = degrees(hub);
  EXPECT_EQ(degree[0], 300u);
  EXPECT_EQ(hub.edges.size(), plain + 300 - 3); // vertex 0 had 3 mesh neighbours
  EXPECT_EQ(*std::max_element(degree.begin() + 1, degree.end()), 7u);
  options.hub_degree = 2500;
  EXPECT_THROW(generate_graph(options), InvalidParameter);
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
