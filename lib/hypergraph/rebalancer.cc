#include <algorithm>

#include "hypergraph/gain_computer.h"
#include "core/indexed_heap.h"
#include "hypergraph/refinement.h"

namespace gnnpart {

bool is_balanced(const PartitionedHypergraph& phg, std::span<const Weight> max_weights) {
  for (BlockID b = 0; b < phg.k(); ++b)
    if (phg.overloaded(b, max_weights))
      return false;
  return true;
}

namespace {

// Weight of u in the constraints where its block is over the limit.
Weight relief(const PartitionedHypergraph& phg, NodeID u, std::span<const Weight> max_weights) {
  const BlockID b = phg.block(u);
  Weight r = 0;
  for (int c = 0; c < phg.ncon(); ++c)
    if (phg.block_weight(b, c) > max_weights[static_cast<std::size_t>(b) * phg.ncon() + c])
      r += phg.hypergraph().vertex_weight(u, c);
  return r;
}

// Priority: gain first; among equal gains, the vertex that relieves more weight.
Weight priority(Weight gain, Weight relief) {
  return gain * 1024 + std::min<Weight>(relief, 1023);
}

} // namespace

bool rebalance(PartitionedHypergraph& phg, const HgContext& ctx,
               std::span<const Weight> max_weights) {
  const NodeID n = phg.num_nodes();
  const BlockID k = phg.k();
  if (is_balanced(phg, max_weights))
    return true;
  GainComputer gc(k);
  IndexedMaxHeap heap(n);
  for (int pass = 0; pass < 8; ++pass) {
    heap.clear();
    for (NodeID u = 0; u < n; ++u) {
      if (!phg.overloaded(phg.block(u), max_weights))
        continue;
      const Weight r = relief(phg, u, max_weights);
      if (r == 0)
        continue;
      const MoveCandidate mc = gc.best_move(phg, u, ctx.objective, max_weights, true);
      if (mc.to != kInvalidBlockID)
        heap.push(u, priority(mc.gain, r));
    }
    bool progress = false;
    while (!heap.empty()) {
      const NodeID u = heap.pop();
      if (!phg.overloaded(phg.block(u), max_weights))
        continue;
      const Weight r = relief(phg, u, max_weights);
      if (r == 0)
        continue;
      const MoveCandidate mc = gc.best_move(phg, u, ctx.objective, max_weights, true);
      if (mc.to == kInvalidBlockID)
        continue;
      const Weight p = priority(mc.gain, r);
      if (!heap.empty() && p < heap.top_key()) {
        heap.push(u, p);
        continue;
      }
      phg.move(u, mc.to, ctx.objective);
      progress = true;
      if (is_balanced(phg, max_weights))
        return true;
    }
    if (!progress)
      break;
  }
  return is_balanced(phg, max_weights);
}

void fill_empty_blocks(PartitionedHypergraph& phg, const HgContext& ctx,
                       std::span<const Weight> max_weights) {
  const NodeID n = phg.num_nodes();
  const BlockID k = phg.k();
  std::vector<NodeID> count(k, 0);
  for (NodeID u = 0; u < n; ++u)
    ++count[phg.block(u)];
  GainComputer gc(k);
  for (BlockID b = 0; b < k; ++b) {
    if (count[b] > 0)
      continue;
    NodeID best = kInvalidNodeID;
    Weight best_gain = 0;
    for (NodeID u = 0; u < n; ++u) {
      if (count[phg.block(u)] < 2 || !phg.fits(u, b, max_weights))
        continue;
      const Weight g = gc.gain(phg, u, b, ctx.objective);
      if (best == kInvalidNodeID || g > best_gain) {
        best = u;
        best_gain = g;
      }
    }
    if (best == kInvalidNodeID)
      continue;
    --count[phg.block(best)];
    ++count[b];
    phg.move(best, b, ctx.objective);
  }
}

} // namespace gnnpart
