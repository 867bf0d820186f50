// The balance rules of the distributed refinement (refinement.h) on several ranks: the ranks'
// shares of a block's room add up to the room, and the balancer empties a block's excess when
// every other block has less room than there are ranks (shares of room / P rounded down gave
// every rank none there, and the balancer stalled over the bound). Run under mpirun (CTest
// distributed.balance_shares, 3 ranks); every rank runs every test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/partition.h"
#include "distributed/chunked_route.h"
#include "distributed/refinement.h"
#include "chord_ring.h"

namespace gnnpart::distributed {
namespace {

TEST(RoomShare, SharesAddUpToTheRoom) {
  for (int ranks = 1; ranks <= 9; ++ranks)
    for (Weight room = -3; room <= 40; ++room)
      for (std::uint64_t turn = 0; turn < 12; ++turn) {
        Weight sum = 0;
        for (int rank = 0; rank < ranks; ++rank) {
          const Weight share = room_share(room, ranks, rank, turn);
          EXPECT_GE(share, room > 0 ? room / ranks : 0);
          EXPECT_LE(share, room > 0 ? room / ranks + 1 : 0);
          sum += share;
        }
        EXPECT_EQ(sum, std::max<Weight>(0, room)) << ranks << " ranks, room " << room;
      }
}

TEST(RoomShare, TheRemainderRotatesWithTheTurn) {
  // room 1 on 3 ranks: each turn gives it to another rank.
  std::vector<int> holder;
  for (std::uint64_t turn = 0; turn < 3; ++turn)
    for (int rank = 0; rank < 3; ++rank)
      if (room_share(1, 3, rank, turn) == 1)
        holder.push_back(rank);
  ASSERT_EQ(holder.size(), 3u);
  std::sort(holder.begin(), holder.end());
  EXPECT_EQ(holder, (std::vector<int>{0, 1, 2}));
}

using test::chord_ring;
using test::kVertices;

TEST(Rebalance, FillsRoomsSmallerThanTheRankCount) {
  const Comm comm = Comm::world();
  ASSERT_GE(comm.size, 2) << "run on several ranks";
  const DistGraph graph = chord_ring(comm);
  DistContext ctx;
  ctx.partition.k = 10;
  ctx.partition.epsilon = 0.004;
  const Weight bound = max_block_weight(graph.total_weight, ctx.partition.k, 0.004);
  ASSERT_EQ(bound, 301);
  // Block 0 one over the bound; the others 300 (room 1) or 299 (room 2), all below the rank
  // count at P = 3; the blocks interleave over the ring, so every rank holds some of each.
  std::vector<Weight> sizes(ctx.partition.k, 300);
  sizes[0] = 302;
  sizes[3] = sizes[7] = 299;
  ASSERT_EQ(std::accumulate(sizes.begin(), sizes.end(), Weight{0}), Weight{kVertices});
  std::vector<BlockID> of_global(kVertices);
  NodeID next = 0;
  for (BlockID b = 0; b < ctx.partition.k; ++b)
    for (Weight i = 0; i < sizes[b]; ++i, ++next)
      of_global[(std::uint64_t{next} * 1777) % kVertices] = b; // 1777 is prime to 3000
  std::vector<BlockID> blocks(graph.n_total());
  for (NodeID u = 0; u < graph.n_total(); ++u)
    blocks[u] = of_global[graph.global_id(u)];

  const RebalanceResult result = rebalance(comm, graph, ctx, blocks);
  EXPECT_TRUE(result.balanced);
  EXPECT_GE(result.moves, 1u);
  const BlockLoads loads = block_loads(comm, graph, blocks, ctx.partition.k);
  for (BlockID b = 0; b < ctx.partition.k; ++b)
    EXPECT_LE(loads.weight[b], bound) << "block " << b;
  // The ghosts were told: every ghost's block is its owner's.
  std::vector<std::uint32_t> all(kVertices, 0);
  for (NodeID u = 0; u < graph.n_local; ++u)
    all[graph.first() + u] = blocks[u] + 1;
  MPI_Allreduce(MPI_IN_PLACE, all.data(), kVertices, MPI_UINT32_T, MPI_MAX, comm.comm);
  for (NodeID u = graph.n_local; u < graph.n_total(); ++u)
    EXPECT_EQ(all[graph.global_id(u)], blocks[u] + 1);
}

} // namespace
} // namespace gnnpart::distributed
