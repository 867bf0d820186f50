#pragma once
// A graph with a k-way assignment, its per-block weights (k * ncon, block b's constraint c at
// b * ncon + c) and the per-block limits of the current run. try_move() keeps every limit,
// also when threads call it concurrently (block weights are updated through atomic_ref).
#include <span>
#include <vector>

#include "core/block_limits.h"
#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

class PartitionedGraph {
public:
  PartitionedGraph(const CsrGraph& graph, BlockID k, std::vector<BlockID> blocks);

  const CsrGraph& graph() const { return *graph_; }
  BlockID k() const { return k_; }
  int ncon() const { return ncon_; }
  BlockID block(NodeID u) const { return blocks_[u]; }
  std::span<const BlockID> blocks() const { return blocks_; }
  std::vector<BlockID> take_blocks() { return std::move(blocks_); }

  Weight block_weight(BlockID b, int c = 0) const {
    return block_weights_[static_cast<std::size_t>(b) * ncon_ + c];
  }
  std::span<const Weight> block_weights() const { return block_weights_; }

  // Pins vertices to blocks: fixed[u] is u's block, or kInvalidBlockID when u may move (an
  // empty span: all free). The span must outlive the object; fixed vertices never move.
  void fix(std::span<const BlockID> fixed) { fixed_ = fixed; }
  bool is_fixed(NodeID u) const { return !fixed_.empty() && fixed_[u] != kInvalidBlockID; }

  // Would u fit into block `to` under the limits (all constraints)? Never for a fixed u.
  bool fits(NodeID u, BlockID to, const BlockLimits& limits) const {
    if (is_fixed(u))
      return false;
    if (ncon_ == 1) { // no loop: FM rating a vertex asks this of every block it is connected to
      const Weight w = graph_->vertex_weight(u);
      return w <= 0 || block_weights_[to] + w <= limits.max(to, 0);
    }
    for (int c = 0; c < ncon_; ++c) {
      const Weight w = graph_->vertex_weight(u, c);
      if (w > 0 && block_weight(to, c) + w > limits.max(to, c))
        return false;
    }
    return true;
  }
  // Is any constraint of block b above its limit?
  bool overloaded(BlockID b, const BlockLimits& limits) const;
  bool balanced(const BlockLimits& limits) const;

  // Moves u to `to` if u is free and every constraint of `to` stays within its limit; thread
  // safe for distinct vertices. Returns whether the move happened.
  bool try_move(NodeID u, BlockID to, const BlockLimits& limits);
  // Moves u unconditionally (single-threaded use).
  void move(NodeID u, BlockID to);

private:
  const CsrGraph* graph_;
  BlockID k_;
  int ncon_;
  std::vector<BlockID> blocks_;
  std::vector<Weight> block_weights_;
  std::span<const BlockID> fixed_;
};

} // namespace gnnpart::ml
