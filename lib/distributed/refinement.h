#pragma once
// Distributed refinement of a partition (blocks spans owned and ghost vertices; ghosts kept
// current): label propagation with cut gains in batches, and a balancer for blocks over the
// bound. Block weights are global (summed after every batch); a rank adds at most
// (bound - W(b)) / P to a block per batch, so no move ever takes a block over the bound, and a
// rank takes at most (|b| - 1) / P vertices out of a block, so no block becomes empty.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

void refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
            std::vector<BlockID>& blocks);

struct RebalanceResult {
  bool balanced = false;   // every block within the bound
  std::uint64_t moves = 0; // vertices moved, all ranks together
};

// Moves vertices out of blocks over the bound, the least harmful first, until none is (or
// ctx.balance_rounds pass).
RebalanceResult rebalance(const Comm& comm, const DistGraph& graph, const DistContext& ctx,
               std::vector<BlockID>& blocks);

// Global weight and vertex count per block (k each). Collective.
struct BlockLoads {
  std::vector<Weight> weight;
  std::vector<std::int64_t> size;
};
BlockLoads block_loads(const Comm& comm, const DistGraph& graph, const std::vector<BlockID>& blocks,
                       BlockID k);

// The balance rules of one batch of label-propagation moves (refine(), volume_refine()): a rank
// adds at most (bound - W(b)) / P to a block and takes at most (|b| - 1) / P vertices out of
// it; after the batch the weight and size changes are summed over the ranks into the loads.
class BatchBudget {
public:
  BatchBudget(BlockID k, Weight bound, int ranks);
  void start(); // a new batch
  bool may_leave(const BlockLoads& loads, BlockID from) const {
    return taken_[from] + 1 <= (loads.size[from] - 1) / ranks_;
  }
  bool may_enter(const BlockLoads& loads, BlockID to, Weight w) const {
    return added_[to] + w <= std::max<Weight>(0, bound_ - loads.weight[to]) / ranks_;
  }
  void move(BlockID from, BlockID to, Weight w);
  void finish(const Comm& comm, BlockLoads& loads); // collective

private:
  Weight bound_;
  Weight ranks_;
  std::vector<Weight> added_, delta_weight_;
  std::vector<std::int64_t> taken_, delta_size_;
};

// Connection of owned vertex u to every block among its neighbours: conn[b] += edge weight
// (conn all zero on entry; touched lists the blocks seen, whose entries the caller resets).
// row: u's neighbours (a RowReader's, so that a spilled adjacency works as one in memory).
// Returns u's weighted degree.
Weight connections(const DistGraph& graph, const std::vector<BlockID>& blocks, NodeID u,
                   std::span<const NodeID> row, std::vector<Weight>& conn,
                   std::vector<BlockID>& touched);

} // namespace gnnpart::distributed
