// Multi-chunk inputs: parallel parsing keeps file order, and results do not depend on the
// thread count; large round trips through every writer.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/graph_builder.h"
#include "io/graph_io.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::ScratchDir;

// A 2D grid with edge weights 1..5 and vertex weights 1..3; big enough for several chunks.
CsrGraph grid_graph(NodeID side) {
  EdgeList edges;
  edges.n = side * side;
  for (NodeID r = 0; r < side; ++r)
    for (NodeID c = 0; c < side; ++c) {
      const NodeID u = r * side + c;
      if (c + 1 < side) {
        edges.sources.push_back(u);
        edges.targets.push_back(u + 1);
        edges.weights.push_back(1 + (u % 5));
      }
      if (r + 1 < side) {
        edges.sources.push_back(u);
        edges.targets.push_back(u + side);
        edges.weights.push_back(1 + ((u / 3) % 5));
      }
    }
  CsrGraph g = build_csr(edges);
  std::vector<Weight> vw(g.num_nodes());
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    vw[u] = 1 + u % 3;
  g.set_vertex_weights(1, std::move(vw));
  return g;
}

TEST(IoParallel, EdgeListOrderAndThreadIndependence) {
  ScratchDir dir;
  std::string text = "# vertices: 70000\n";
  std::vector<NodeID> sources, targets;
  std::vector<Weight> weights;
  for (std::uint64_t i = 0; i < 250000; ++i) {
    const NodeID u = static_cast<NodeID>((i * 7919) % 69997), v = static_cast<NodeID>(i % 1009);
    sources.push_back(u);
    targets.push_back(v);
    text += std::to_string(u) + (i % 3 == 0 ? "," : "\t") + std::to_string(v);
    if (i % 5000 == 4999) { // sparse weights: every other line gets weight 1
      text += " 9";
      weights.push_back(9);
    } else {
      weights.push_back(1);
    }
    text += i % 7 == 0 ? "\r\n" : "\n";
    if (i % 10000 == 0)
      text += "# comment\n\n";
  }
  ASSERT_GT(text.size(), std::size_t{2} << 20);
  testing::write_text(dir.file("big.el"), text);
  for (int threads : {1, 2}) {
    ReadOptions options;
    options.threads = threads;
    const EdgeListData data = read_edge_list(dir.file("big.el"), options);
    EXPECT_EQ(data.edges.n, 70000u);
    EXPECT_EQ(data.edges.sources, sources);
    EXPECT_EQ(data.edges.targets, targets);
    EXPECT_EQ(data.edges.weights, weights);
  }
}

TEST(IoParallel, LargeRoundTripThroughEveryWriter) {
  ScratchDir dir;
  const CsrGraph g = grid_graph(400); // 160000 vertices, 319200 edges
  write_metis(g, dir.file("g.graph"));
  testing::expect_same_graph(read_graph(dir.file("g.graph")), g);
  write_binary_graph(g, dir.file("g.gnnp"));
  testing::expect_same_graph(read_graph(dir.file("g.gnnp")), g);
  write_edge_list(g, dir.file("g.edges.gz"));
  const CsrGraph from_edges = read_graph(dir.file("g.edges.gz"));
  testing::expect_same_structure(from_edges, g);
  EXPECT_EQ(std::vector<Weight>(from_edges.edge_weights().begin(), from_edges.edge_weights().end()),
            std::vector<Weight>(g.edge_weights().begin(), g.edge_weights().end()));
  write_matrix_market(g, dir.file("g.mtx"));
  testing::expect_same_structure(read_graph(dir.file("g.mtx")), g);
  write_column_net_hmetis(g, dir.file("g.hgr"));
  const Hypergraph h = read_hmetis(dir.file("g.hgr"));
  EXPECT_EQ(h.num_nets(), g.num_nodes());
  EXPECT_EQ(h.num_pins(), g.num_nodes() + g.num_directed_edges());
  for (NodeID u : {NodeID{0}, NodeID{401}, NodeID{159999}}) {
    EXPECT_EQ(h.vertex_weight(u), g.vertex_weight(u));
    EXPECT_EQ(h.net_size(u), g.degree(u) + 1);
  }
}

// Chunks are copied into place in parallel: vertex and edge weights land with their rows.
TEST(IoParallel, MetisWithWeightsIsTheSameForAnyThreadCount) {
  ScratchDir dir;
  CsrGraph g = grid_graph(300); // 90000 vertices: several chunks
  write_metis(g, dir.file("g.graph"));
  std::vector<Weight> two(2 * static_cast<std::size_t>(g.num_nodes()));
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    two[2 * u] = 1 + u % 7;
    two[2 * u + 1] = u % 2;
  }
  CsrGraph h = grid_graph(300);
  h.set_vertex_weights(2, std::move(two));
  write_metis(h, dir.file("h.graph"));
  for (const int threads : {1, 2, 4}) {
    ReadOptions options;
    options.threads = threads;
    testing::expect_same_graph(read_graph(dir.file("g.graph"), options), g);
    testing::expect_same_graph(read_graph(dir.file("h.graph"), options), h);
  }
}

TEST(IoParallel, MetisErrorLineDeepInside) {
  ScratchDir dir;
  const CsrGraph g = grid_graph(300);
  write_metis(g, dir.file("g.graph"));
  std::string text = testing::read_text(dir.file("g.graph"));
  // Break the line of vertex 70001 (file line 70002): a neighbour id past n.
  std::size_t at = 0;
  for (int line = 1; line < 70002; ++line)
    at = text.find('\n', at) + 1;
  std::string asymmetric = text;
  text.insert(text.find('\n', at), " 90001 1");
  testing::write_text(dir.file("bad.graph"), text);
  // Vertex 70001 lists vertex 1 (weight 1) instead of its last neighbour (70301): neither lists
  // it back. Found on the arrays after parsing, named by the line of the vertex.
  const std::size_t end = asymmetric.find('\n', at);
  const std::size_t last = asymmetric.rfind(' ', asymmetric.rfind(' ', end - 1) - 1);
  asymmetric.replace(last, end - last, " 1 1");
  testing::write_text(dir.file("asym.graph"), asymmetric);
  for (const int threads : {1, 2, 3}) { // rows in file order (1, 2), or parallel chunks (3)
    SCOPED_TRACE(threads);
    ReadOptions options;
    options.threads = threads;
    testing::expect_input_error([&] { read_graph(dir.file("bad.graph"), options); },
                                dir.file("bad.graph") + ":70002: ", "out of range 1..90000");
    testing::expect_input_error([&] { read_graph(dir.file("asym.graph"), options); },
                                dir.file("asym.graph") + ":70002: ");
  }
}

// A path 1 - 2 - ... - n as METIS rows, with a '%' comment line before every 1000th row and
// isolated vertices (blank rows) at every 777th: the text's lines are not its rows.
std::string commented_path_rows(std::uint64_t n, std::uint64_t& isolated_edges) {
  std::string rows;
  isolated_edges = 0;
  auto isolated = [](std::uint64_t v) { return v % 777 == 0; };
  for (std::uint64_t v = 1; v <= n; ++v) {
    if (v % 1000 == 0)
      rows += "% rows " + std::to_string(v) + " on\n";
    if (isolated(v)) {
      rows += "\n";
      continue;
    }
    const bool left = v > 1 && !isolated(v - 1), right = v < n && !isolated(v + 1);
    if (left)
      rows += std::to_string(v - 1);
    if (left && right)
      rows += ' ';
    if (right)
      rows += std::to_string(v + 1);
    rows += '\n';
  }
  for (std::uint64_t v = 1; v < n; ++v)
    isolated_edges += !isolated(v) && !isolated(v + 1);
  return rows;
}

// Rows parsed in file order (1, 2 threads) or in parallel chunks (3) whose first rows are
// counted apart: comment lines and blank rows must not shift a later row's vertex id, and the
// earlier of two failures wins.
TEST(IoParallel, MetisRowIdsPastCommentsAndTheFirstFailure) {
  ScratchDir dir;
  constexpr std::uint64_t n = 200000;
  std::uint64_t m = 0;
  const std::string rows = commented_path_rows(n, m);
  const std::string header = "% a path\n" + std::to_string(n) + " " + std::to_string(m) + "\n";
  testing::write_text(dir.file("path.graph"), header + rows);
  ReadOptions one;
  one.threads = 1;
  const CsrGraph expected = read_graph(dir.file("path.graph"), one);
  ASSERT_EQ(expected.num_nodes(), n);
  for (const int threads : {2, 3}) {
    SCOPED_TRACE(threads);
    ReadOptions options;
    options.threads = threads;
    testing::expect_same_graph(read_graph(dir.file("path.graph"), options), expected);
  }
  // A self loop at vertex 180001 (in the second part): named by its id and line.
  struct RowAt {
    std::size_t offset;
    std::uint64_t line;
  };
  auto row_at = [&](const std::string& text, std::uint64_t vertex) {
    RowAt at{header.size(), 3}; // the header's two lines first
    for (std::uint64_t row = 1;; at.offset = text.find('\n', at.offset) + 1, ++at.line) {
      if (text[at.offset] == '%')
        continue;
      if (row++ == vertex)
        return at;
    }
  };
  std::string loop = header + rows;
  loop.insert(row_at(loop, 180001).offset, "180001 ");
  testing::write_text(dir.file("loop.graph"), loop);
  // And a non-number at vertex 5001 (in the first part) as well: that one is reported.
  std::string both = loop;
  both.insert(row_at(both, 5001).offset, "x ");
  testing::write_text(dir.file("both.graph"), both);
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    ReadOptions options;
    options.threads = threads;
    testing::expect_input_error([&] { read_graph(dir.file("loop.graph"), options); },
                                dir.file("loop.graph") + ":" +
                                    std::to_string(row_at(loop, 180001).line) + ": ",
                                "vertex 180001 has a self loop");
    testing::expect_input_error(
        [&] { read_graph(dir.file("both.graph"), options); },
        dir.file("both.graph") + ":" + std::to_string(row_at(both, 5001).line) + ": ", "found 'x'");
  }
}

TEST(IoParallel, CrLfMetisAndLenientWeightsFromEvalpartFixture) {
  ScratchDir dir;
  testing::write_text(dir.file("crlf.graph"), "% c\r\n3 2\r\n2\r\n1 3\r\n2\r\n");
  const CsrGraph path3 = read_graph(dir.file("crlf.graph"));
  EXPECT_EQ(path3.num_edges(), 2u);
  // star.el: duplicates, a reversed duplicate, a self loop, CRLF, a tab, one weighted line.
  const std::string star = std::string(GNNPART_SHARED_DIR) + "/tools/evalpart/tests/star.el";
  const CsrGraph g = read_graph(star);
  EXPECT_EQ(g.num_nodes(), 5u);
  EXPECT_EQ(g.num_edges(), 4u);
  ASSERT_TRUE(g.has_edge_weights());
  for (EdgeID e = g.first_edge(0); e < g.last_edge(0); ++e)
    EXPECT_EQ(g.edge_weight(e), g.edge_target(e) == 3 ? 17 : 1);
}

} // namespace
} // namespace gnnpart::io
