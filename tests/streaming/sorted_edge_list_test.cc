// Vertex streams over text edge lists that are already sorted by source (`stream --sorted`).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.h"
#include "stream_test_util.h"
#include "streaming/stream_source.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

// Both directions of every edge, sources ascending, neighbours ascending (one_based shifts ids).
std::string sorted_text(const std::vector<std::vector<NodeID>>& adjacency, bool one_based = false) {
  std::string text = "# vertices: " + std::to_string(adjacency.size()) + "\n";
  const NodeID shift = one_based ? 1 : 0;
  for (NodeID u = 0; u < adjacency.size(); ++u)
    for (const NodeID v : adjacency[u])
      text += std::to_string(u + shift) + "\t" + std::to_string(v + shift) + "\n";
  return text;
}

TEST(SortedEdgeList, SameNeighboursAsTheSortedPath) {
  const NodeID n = 700; // the header keeps isolated trailing vertices
  const Edges edges = random_edges(n - 20, 4000, 5);
  const auto expected = reference_adjacency(n, edges);
  for (const bool one_based : {false, true}) {
    SCOPED_TRACE(one_based);
    const std::string sorted = temp_path("sorted.edges");
    write_text(sorted, sorted_text(expected, one_based));
    const auto direct = open_sorted_edge_list_stream(sorted, one_based, 256); // many batches
    EXPECT_EQ(direct->num_nodes(), n);
    EdgeID entries = 0;
    for (const auto& list : expected)
      entries += list.size();
    EXPECT_EQ(direct->num_entries(), entries);
    EXPECT_EQ(read_all(*direct), expected);
    EXPECT_EQ(read_all(*direct), expected); // a second pass (restreaming) reads the same

    // The unsorted single-direction list through the external sort gives the same lists.
    const std::string unsorted = temp_path("unsorted.edges");
    write_text(unsorted, edge_list_text(n, edges));
    VertexStreamOptions options;
    OpenedVertexStream opened = open_vertex_stream(unsorted, options);
    EXPECT_EQ(read_all(*opened.stream), expected);
  }
}

TEST(SortedEdgeList, ChosenThroughOpenVertexStream) {
  const auto adjacency = reference_adjacency(50, random_edges(50, 200, 2));
  const std::string path = temp_path("g.edges");
  write_text(path, sorted_text(adjacency));
  VertexStreamOptions options;
  options.sorted_input = true;
  OpenedVertexStream opened = open_vertex_stream(path, options);
  EXPECT_FALSE(opened.sorted); // no external sort ran
  EXPECT_EQ(read_all(*opened.stream), adjacency);
}

TEST(SortedEdgeList, UnsortedOrAsymmetricInputIsRejectedWithItsLine) {
  const std::string path = temp_path("bad.edges");
  write_text(path, "0 1\n1 0\n1 2\n0 2\n2 1\n2 0\n");
  try {
    open_sorted_edge_list_stream(path, false);
    FAIL() << "accepted a list not sorted by source";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":4:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not sorted by source"), std::string::npos);
  }
  write_text(path, "# one direction only\n0 1\n1 2\n");
  try {
    open_sorted_edge_list_stream(path, false);
    FAIL() << "accepted an edge list without the reverse edges";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not symmetric"), std::string::npos) << e.what();
  }
  write_text(path, "0 1\n1 x\n");
  EXPECT_THROW(open_sorted_edge_list_stream(path, false), InputError);
}

} // namespace
} // namespace gnnpart::streaming
