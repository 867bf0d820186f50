// BlockSnapshot keeps a partition's blocks in 1, 2 or 4 bytes a vertex by k and restores them:
// after random moves, restoring gives the blocks, block weights and pin counts of the kept
// partition, at k on both sides of each width's limit.
#include <gtest/gtest.h>

#include <vector>

#include "core/random.h"
#include "hypergraph/block_snapshot.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

TEST(BlockSnapshot, RestoresTheKeptPartitionAtEveryWidth) {
  for (BlockID k : {2u, 256u, 257u, 65536u, 65537u}) {
    SCOPED_TRACE(::testing::Message() << "k " << k);
    Rng rng(k);
    const NodeID n = 500;
    const Hypergraph hg = testing::random_hypergraph(n, 300, 6, 40, 3, 1, rng);
    std::vector<BlockID> blocks(n);
    for (NodeID u = 0; u < n; ++u) // the largest block ids too
      blocks[u] = static_cast<BlockID>(u % 3 == 0 ? k - 1 - rng.below(2) : rng.below(k));
    PartitionedHypergraph phg(hg, k);
    phg.assign(blocks);
    const BlockSnapshot snapshot(phg);
    for (NodeID u = 0; u < n; ++u)
      ASSERT_EQ(snapshot.block(u), blocks[u]);
    for (int step = 0; step < 300; ++step)
      phg.move(static_cast<NodeID>(rng.below(n)), static_cast<BlockID>(rng.below(k)),
               Objective::kKm1);
    snapshot.restore(phg);
    PartitionedHypergraph fresh(hg, k);
    fresh.assign(blocks);
    for (NodeID u = 0; u < n; ++u)
      ASSERT_EQ(phg.block(u), blocks[u]);
    for (BlockID b = 0; b < k; ++b)
      ASSERT_EQ(phg.block_weight(b), fresh.block_weight(b)) << "block " << b;
    for (NetID e = 0; e < hg.num_nets(); ++e) {
      ASSERT_EQ(phg.connectivity(e), fresh.connectivity(e)) << "net " << e;
      for (NodeID p : hg.pins(e))
        ASSERT_EQ(phg.pin_count(e, phg.block(p)), fresh.pin_count(e, phg.block(p)));
    }
  }
}

} // namespace
} // namespace gnnpart::hg
