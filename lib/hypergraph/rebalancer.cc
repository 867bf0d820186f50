#include <algorithm>
#include <utility>
#include <vector>

#include "hypergraph/gain_computer.h"
#include "core/indexed_heap.h"
#include "core/multilevel_steps.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

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

namespace {

// The rebalancer; best(u) gives u's best move to any block it fits (ties: lighter block, then
// lower id), move(u, to) makes it.
template <typename Best, typename Move>
bool rebalance_with(PartitionedHypergraph& phg, std::span<const Weight> max_weights, Best&& best,
                    Move&& move) {
  const NodeID n = phg.num_nodes();
  if (is_balanced(phg, max_weights))
    return true;
  IndexedMaxHeap heap(n);
  // u's best move out of an overloaded block and its priority (to == kInvalidBlockID: none).
  auto scored_move = [&](NodeID u) -> std::pair<MoveCandidate, Weight> {
    if (!phg.overloaded(phg.block(u), max_weights))
      return {{kInvalidBlockID, 0}, 0};
    const Weight r = relief(phg, u, max_weights);
    if (r == 0)
      return {{kInvalidBlockID, 0}, 0};
    const MoveCandidate mc = best(u);
    return {mc, priority(mc.gain, r)};
  };
  for (int pass = 0; pass < 8; ++pass) {
    heap.clear();
    for (NodeID u = 0; u < n; ++u) {
      const auto [mc, p] = scored_move(u);
      if (mc.to != kInvalidBlockID)
        heap.push(u, p);
    }
    bool progress = false;
    while (!heap.empty()) {
      const NodeID u = heap.pop();
      const auto [mc, p] = scored_move(u);
      if (mc.to == kInvalidBlockID)
        continue;
      if (!heap.empty() && p < heap.top_key()) {
        heap.push(u, p);
        continue;
      }
      move(u, mc.to);
      progress = true;
      if (is_balanced(phg, max_weights))
        return true;
    }
    if (!progress)
      break;
  }
  return is_balanced(phg, max_weights);
}

} // namespace

bool rebalance(PartitionedHypergraph& phg, const HgContext& ctx,
               std::span<const Weight> max_weights) {
  if (is_balanced(phg, max_weights))
    return true;
  GainComputer gc(phg.k());
  return rebalance_with(
      phg, max_weights,
      [&](NodeID u) { return gc.best_move(phg, u, ctx.objective, max_weights, true); },
      [&](NodeID u, BlockID to) { phg.move(u, to, ctx.objective); });
}

bool rebalance(PartitionedHypergraph& phg, std::span<const Weight> max_weights,
               Km1GainCache& cache) {
  if (is_balanced(phg, max_weights))
    return true;
  // GainComputer::best_move over every block, with km1 gains read from the cache: the same
  // gains, blocks in the same order, the same ties, so the same moves. A block u is connected
  // to (conn > 0) has a higher gain than every other, so those are weighed first; only when
  // none fits is the best the lightest fitting block (then the lowest id), which depends on u
  // only through its block and weight. That one is kept until the next move (one constraint):
  // most candidates of an overloaded block are interior, and weighing all k blocks for each
  // (wing k = 128: 7% of the run's instructions, most of it counting rowless connections
  // to blocks they have none with) repeated the same scan.
  struct Lightest {
    PartitionedHypergraph::State state{~std::uint64_t{0}, 0}; // no partition's
    BlockID from = kInvalidBlockID;
    Weight weight = 0;
    MoveCandidate move;
  } lightest;
  const auto best = [&](NodeID u) {
    const BlockID from = phg.block(u);
    const Weight base = cache.base(u);
    BestMove best;
    cache.for_each_positive_conn(u, [&](BlockID t, Weight ct) {
      if (ct > 0 && t != from && phg.fits(u, t, max_weights))
        best.offer(t, base + ct, phg.block_weight(t));
    });
    if (best.move.to != kInvalidBlockID)
      return best.move;
    const bool one = phg.ncon() == 1;
    const Weight w = phg.hypergraph().vertex_weight(u, 0);
    const PartitionedHypergraph::State state = phg.state();
    if (one && lightest.state == state && lightest.from == from && lightest.weight == w)
      return lightest.move.to == kInvalidBlockID ? MoveCandidate{}
                                                 : MoveCandidate{lightest.move.to, base};
    for (BlockID t = 0; t < phg.k(); ++t)
      if (t != from && phg.fits(u, t, max_weights))
        best.offer(t, base, phg.block_weight(t));
    if (one)
      lightest = {state, from, w, best.move};
    return best.move;
  };
  const std::uint64_t work = cache.work(); // these moves are not refinement work
  std::vector<NetID> touched;              // stays empty: no net is re-rated
  const bool balanced = rebalance_with(
      phg, max_weights, best, [&](NodeID u, BlockID to) { cache.move(phg, u, to, 0, touched); });
  cache.reset_work(work);
  return balanced;
}

void fill_empty_blocks(PartitionedHypergraph& phg, const HgContext& ctx,
                       std::span<const Weight> max_weights) {
  // The best-gain vertex from a block with more than one vertex.
  GainComputer gc(phg.k());
  gnnpart::fill_empty_blocks(
      phg.num_nodes(), phg.k(), [&](NodeID u) { return phg.block(u); },
      [&](NodeID u, BlockID b, std::span<const NodeID> sizes) {
        return sizes[phg.block(u)] >= 2 && phg.fits(u, b, max_weights);
      },
      [&](NodeID u, BlockID b) { return -gc.gain(phg, u, b, ctx.objective); },
      [&](NodeID u, BlockID b) { phg.move(u, b, ctx.objective); });
}

} // namespace gnnpart::hg
