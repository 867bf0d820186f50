// HDRF keeps the hard edge bound on text edge lists too, whose edge count is known only after
// reading (it once relied on a "# edges:" header read too late, and overloaded blocks 10x).
#include <gtest/gtest.h>

#include "core/partition.h"
#include "stream_test_util.h"
#include "streaming/edge_partitioner.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

TEST(HdrfBalance, TextEdgeListsStayWithinTheEdgeBound) {
  // A mesh-like graph: HDRF's replication term keeps growing one block when balance is loose.
  const NodeID side = 40;
  Edges edges;
  for (NodeID r = 0; r < side; ++r)
    for (NodeID c = 0; c < side; ++c) {
      const NodeID u = r * side + c;
      if (c + 1 < side)
        edges.push_back({u, u + 1});
      if (r + 1 < side)
        edges.push_back({u, u + side});
    }
  const std::string path = temp_path("mesh.edges");
  write_text(path, edge_list_text(side * side, edges));
  for (const BlockID k : {8u, 32u}) {
    StreamOptions options;
    options.algorithm = StreamAlgorithm::kHdrf;
    options.k = k;
    auto stream = open_edge_stream(path, StreamFormat::kAuto, false, 100);
    std::vector<EdgeID> per_block(k, 0);
    stream_partition_edges(*stream, options,
                           [&](const EdgeBatch&, std::span<const BlockID> blocks) {
                             for (BlockID b : blocks)
                               ++per_block[b];
                           });
    const Weight bound = max_block_weight(static_cast<Weight>(edges.size()), k, options.epsilon);
    for (BlockID b = 0; b < k; ++b)
      EXPECT_LE(static_cast<Weight>(per_block[b]), bound) << "k=" << k << " block " << b;
  }
}

} // namespace
} // namespace gnnpart::streaming
