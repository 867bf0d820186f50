// Partition files, vertex sets and per-vertex values.
#include <string>

#include <gtest/gtest.h>

#include "io/graph_io.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::fixture;
using testing::ScratchDir;

TEST(IoPartition, ReadsTheFixture) {
  const Partition p = read_partition(fixture("tiny/tiny.part"), 8);
  EXPECT_EQ(p.k, 2u);
  EXPECT_EQ(p.blocks, (std::vector<BlockID>{0, 0, 0, 1, 1, 1, 1, 0}));
  EXPECT_EQ(read_partition(fixture("tiny/tiny.part"), 8, 5).k, 5u);
}

TEST(IoPartition, RoundTripPlainAndGzip) {
  ScratchDir dir;
  Partition p;
  p.k = 4;
  for (NodeID u = 0; u < 100000; ++u)
    p.blocks.push_back((u * 7) % 4);
  for (const std::string name : {"g.part.4", "g.part.4.gz"}) {
    write_partition(p, dir.file(name));
    const Partition back = read_partition(dir.file(name), 100000, 4);
    EXPECT_EQ(back.blocks, p.blocks);
  }
  EXPECT_EQ(testing::read_text(dir.file("g.part.4")).substr(0, 8), "0\n3\n2\n1\n");
}

// Ids of up to 7 digits come from a table of formatted lines; longer ones (k of 10^7 and more)
// are formatted one by one, also between table lines of the same block of the file.
TEST(IoPartition, WritesShortAndLongIds) {
  ScratchDir dir;
  Partition p;
  p.k = 123456789;
  p.blocks = {0, 9, 10, 9999999, 10000000, 123456788, 7, 123456, 42, 100000000};
  for (NodeID u = 0; u < 70000; ++u) // past one formatting block of 2^16 lines
    p.blocks.push_back(u % 3 == 0 ? 10000000 + u : u);
  write_partition(p, dir.file("g.part"));
  EXPECT_EQ(testing::read_text(dir.file("g.part")).substr(0, 69),
            "0\n9\n10\n9999999\n10000000\n123456788\n7\n123456\n42\n100000000\n10000000\n1\n2\n");
  EXPECT_EQ(read_partition(dir.file("g.part"), 70010, p.k).blocks, p.blocks);
  Partition small{1000, {999, 0, 100}};
  write_partition(small, dir.file("s.part"));
  EXPECT_EQ(testing::read_text(dir.file("s.part")), "999\n0\n100\n");
}

TEST(IoPartition, DefaultPath) {
  EXPECT_EQ(default_partition_path("/data/cora.edges.gz", 8), "/data/cora.edges.gz.part.8");
  EXPECT_EQ(default_partition_path("g.graph", 2), "g.graph.part.2");
}

TEST(IoPartition, EmptyPartitionOfEmptyGraph) {
  ScratchDir dir;
  write_partition(Partition{1, {}}, dir.file("e.part"));
  EXPECT_TRUE(read_partition(dir.file("e.part"), 0, 1).blocks.empty());
}

TEST(IoVertexSets, CommentsAndBlankLines) {
  EXPECT_EQ(read_vertex_set(fixture("tiny/tiny.train"), 8), (std::vector<NodeID>{0, 3, 7}));
  testing::expect_input_error([] { read_vertex_set(fixture("tiny/tiny.train"), 7); },
                              fixture("tiny/tiny.train") + ":6: ", "out of range 0..6");
}

TEST(IoVertexSets, ValuesAllowNegativeAndGzip) {
  ScratchDir dir;
  testing::write_text(dir.file("v.txt"), "# labels\n-1\n3\n0\n");
  EXPECT_EQ(read_vertex_values(dir.file("v.txt"), 3), (std::vector<std::int64_t>{-1, 3, 0}));
  const auto labels = read_vertex_values(testing::shared_dataset("cora.labels.gz"), 2708);
  EXPECT_EQ(labels.size(), 2708u);
  EXPECT_EQ(labels[0], 3);
}

} // namespace
} // namespace gnnpart::io
