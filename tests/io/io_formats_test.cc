// The tiny graph stored in every input format reads back as the golden CSR.
#include <gtest/gtest.h>

#include "core/graph_builder.h"
#include "io/graph_io.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::expect_same_graph;
using testing::expect_same_structure;
using testing::fixture;
using testing::tiny_graph;

TEST(IoFormats, WeightedEdgeListWithNoise) {
  const CsrGraph g = read_graph(fixture("tiny/tiny.edges"));
  expect_same_graph(g, tiny_graph());
}

TEST(IoFormats, GzipEdgeListIsTheSame) {
  const CsrGraph g = read_graph(fixture("tiny/tiny.edges.gz"));
  expect_same_graph(g, tiny_graph());
}

TEST(IoFormats, CsvWithColumnNames) {
  const CsrGraph g = read_graph(fixture("tiny/tiny.csv"));
  expect_same_graph(g, tiny_graph());
}

TEST(IoFormats, UnweightedEdgeListKeepsIsolatedVertexThroughHeader) {
  const EdgeListData data = read_edge_list(fixture("tiny/tiny.el"));
  EXPECT_EQ(data.edges.n, 8u); // max id + 1 would be 7
  EXPECT_EQ(data.edges.sources.size(), 8u);
  EXPECT_TRUE(data.edges.weights.empty());
  EXPECT_EQ(data.lines, 9u);
  const CsrGraph g = read_graph(fixture("tiny/tiny.el"));
  expect_same_graph(g, tiny_graph(false));
}

TEST(IoFormats, EdgeListKeepsFileOrder) {
  const EdgeListData data = read_edge_list(fixture("tiny/tiny.edges"));
  // 8 edges, one reversed duplicate after the second, one self loop at the end.
  const std::vector<NodeID> sources = {0, 0, 1, 2, 1, 2, 3, 4, 5, 6};
  const std::vector<NodeID> targets = {1, 2, 2, 1, 3, 4, 4, 5, 6, 6};
  const std::vector<Weight> weights = {2, 1, 3, 3, 1, 5, 1, 2, 1, 4};
  EXPECT_EQ(data.edges.sources, sources);
  EXPECT_EQ(data.edges.targets, targets);
  EXPECT_EQ(data.edges.weights, weights);
}

TEST(IoFormats, OneBased) {
  ReadOptions options;
  options.one_based = true;
  const CsrGraph g = read_graph(fixture("tiny/tiny_1based.el"), options);
  expect_same_graph(g, tiny_graph(false));
}

TEST(IoFormats, RelabelCompactsInLabelOrderAndWritesTheMap) {
  testing::ScratchDir dir;
  ReadOptions options;
  options.relabel = true;
  options.label_map_path = dir.file("labels.txt");
  const EdgeListData data = read_edge_list(fixture("tiny/tiny_labels.el"), options);
  // labels of tiny vertices 0..6: 5 17 2^40 2^64-1 99 1000 123456789012; sorted ranks:
  // 5->0 17->1 99->2 1000->3 123456789012->4 2^40->5 2^64-1->6
  const std::vector<std::uint64_t> labels = {
      5, 17, 99, 1000, 123456789012ULL, 1ULL << 40, 18446744073709551615ULL};
  EXPECT_EQ(data.labels, labels);
  EXPECT_EQ(data.edges.n, 7u);
  const std::vector<NodeID> rank = {0, 1, 5, 6, 2, 3, 4}; // tiny id -> new id
  ASSERT_EQ(data.edges.sources.size(), 8u);
  const std::vector<std::pair<NodeID, NodeID>> tiny = {{0, 1}, {0, 2}, {1, 2}, {1, 3},
                                                       {2, 4}, {3, 4}, {4, 5}, {5, 6}};
  for (std::size_t i = 0; i < tiny.size(); ++i) {
    EXPECT_EQ(data.edges.sources[i], rank[tiny[i].first]);
    EXPECT_EQ(data.edges.targets[i], rank[tiny[i].second]);
  }
  EXPECT_EQ(testing::read_text(options.label_map_path),
            "0 5\n1 17\n2 99\n3 1000\n4 123456789012\n5 1099511627776\n6 18446744073709551615\n");
}

TEST(IoFormats, MetisWithVertexAndEdgeWeights) {
  const CsrGraph g = read_graph(fixture("tiny/tiny.graph"));
  expect_same_graph(g, tiny_graph(true, true));
}

TEST(IoFormats, MetisMultiConstraint) {
  const CsrGraph g = read_graph(fixture("tiny/tiny_ncon2.graph"));
  expect_same_structure(g, tiny_graph());
  EXPECT_FALSE(g.has_edge_weights());
  ASSERT_EQ(g.ncon(), 2);
  for (NodeID u = 0; u < 8; ++u) {
    EXPECT_EQ(g.vertex_weight(u, 0), testing::kTinyVertexWeights[u]);
    EXPECT_EQ(g.vertex_weight(u, 1), u % 3);
  }
}

TEST(IoFormats, MatrixMarketGeneralIntegerIsSymmetrized) {
  const CsrGraph g = read_graph(fixture("tiny/tiny.mtx"));
  expect_same_graph(g, tiny_graph()); // diagonal entry dropped
}

TEST(IoFormats, MatrixMarketPatternSymmetric) {
  const CsrGraph g = read_graph(fixture("tiny/tiny_pattern.mtx"));
  expect_same_graph(g, tiny_graph(false));
}

TEST(IoFormats, ColumnNetHypergraph) {
  const Hypergraph h = read_hmetis(fixture("tiny/tiny.hgr"));
  const CsrGraph g = tiny_graph();
  ASSERT_EQ(h.num_nodes(), 8u);
  ASSERT_EQ(h.num_nets(), 8u);
  EXPECT_EQ(h.num_pins(), 8u + 16u);
  for (NodeID u = 0; u < 8; ++u) {
    std::vector<NodeID> expected = {u};
    for (const NodeID v : g.neighbors(u))
      expected.push_back(v);
    std::vector<NodeID> pins(h.pins(u).begin(), h.pins(u).end());
    std::sort(pins.begin(), pins.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(pins, expected) << "net " << u;
  }
}

TEST(IoFormats, HmetisWithNetAndVertexWeights) {
  const Hypergraph h = read_hmetis(fixture("tiny/tiny_weighted.hgr"));
  ASSERT_EQ(h.num_nodes(), 5u);
  ASSERT_EQ(h.num_nets(), 3u);
  EXPECT_EQ(h.net_weight(0), 4);
  EXPECT_EQ(h.net_weight(1), 1);
  EXPECT_EQ(h.net_weight(2), 2);
  EXPECT_EQ(std::vector<NodeID>(h.pins(1).begin(), h.pins(1).end()),
            (std::vector<NodeID>{1, 2, 4}));
  for (NodeID u = 0; u < 5; ++u)
    EXPECT_EQ(h.vertex_weight(u), u + 1);
}

TEST(IoFormats, GraphFromHgrIsRefused) {
  testing::expect_input_error([] { read_graph(fixture("tiny/tiny.hgr")); },
                              fixture("tiny/tiny.hgr") + ": ", "read_hmetis");
}

TEST(IoFormats, DetectFormat) {
  EXPECT_EQ(detect_format("a/b.txt"), GraphFormat::kEdgeList);
  EXPECT_EQ(detect_format("x.edges.gz"), GraphFormat::kEdgeList);
  EXPECT_EQ(detect_format("x.EL"), GraphFormat::kEdgeList);
  EXPECT_EQ(detect_format("x.csv.gz"), GraphFormat::kEdgeList);
  EXPECT_EQ(detect_format("x.graph"), GraphFormat::kMetis);
  EXPECT_EQ(detect_format("x.metis.gz"), GraphFormat::kMetis);
  EXPECT_EQ(detect_format("x.mtx"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(detect_format("x.gnnp"), GraphFormat::kBinary);
  EXPECT_EQ(detect_format("x.hgr.gz"), GraphFormat::kHmetis);
  testing::expect_input_error([] { detect_format("x.xyz"); }, "x.xyz: ", "unknown extension");
  testing::expect_input_error([] { detect_format("dir.d/noext"); },
                              "dir.d/noext: ", "no file extension");
  EXPECT_EQ(parse_format("metis"), GraphFormat::kMetis);
  EXPECT_EQ(parse_format("EdgeList"), GraphFormat::kEdgeList);
  EXPECT_THROW(parse_format("bogus"), InvalidParameter);
}

TEST(IoFormats, ExplicitFormatOverridesTheName) {
  ReadOptions options;
  options.format = GraphFormat::kMetis;
  testing::ScratchDir dir;
  const std::string path = dir.file("tiny.dat");
  testing::write_text(path, testing::read_text(fixture("tiny/tiny.graph")));
  expect_same_graph(read_graph(path, options), tiny_graph(true, true));
}

TEST(IoFormats, ContentSniffingWithoutExtension) {
  testing::ScratchDir dir;
  const std::string path = dir.file("matrix");
  testing::write_text(path, testing::read_text(fixture("tiny/tiny.mtx")));
  expect_same_graph(read_graph(path), tiny_graph());
  testing::write_text(dir.file("plain"), "0 1\n");
  testing::expect_input_error([&] { read_graph(dir.file("plain")); }, dir.file("plain") + ": ",
                              "no file extension");
}

TEST(IoFormats, ThreadCountDoesNotChangeTheResult) {
  for (int threads : {1, 2, 3}) {
    ReadOptions options;
    options.threads = threads;
    expect_same_graph(read_graph(fixture("tiny/tiny.edges.gz"), options), tiny_graph());
    expect_same_graph(read_graph(fixture("tiny/tiny.graph"), options), tiny_graph(true, true));
  }
}

TEST(IoFormats, RealDatasetCora) {
  const std::string path = testing::shared_dataset("cora.edges.gz");
  const CsrGraph g = read_graph(path);
  EXPECT_EQ(g.num_nodes(), 2708u);
  EXPECT_EQ(g.num_edges(), 5278u);
  EXPECT_TRUE(is_symmetric(g));
  const auto train = read_vertex_set(testing::shared_dataset("cora.train.gz"), g.num_nodes());
  EXPECT_EQ(train.size(), 140u);
  const auto labels = read_vertex_values(testing::shared_dataset("cora.labels.gz"), g.num_nodes());
  EXPECT_EQ(labels.size(), 2708u);
}

TEST(IoFormats, RealHypergraphIbm01) {
  const Hypergraph h = read_hmetis(testing::shared_dataset("ibm01.hgr.gz"));
  EXPECT_EQ(h.num_nodes(), 12752u);
  EXPECT_EQ(h.num_nets(), 14111u);
}

} // namespace
} // namespace gnnpart::io
