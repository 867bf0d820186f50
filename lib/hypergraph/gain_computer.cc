#include "hypergraph/gain_computer.h"

namespace gnnpart::hg {

// Fills score_[t] for adjacent blocks t and returns the base term shared by all targets, so
// gain(u, t) = base + score_[t].
Weight GainComputer::accumulate(const PartitionedHypergraph& phg, NodeID u, Objective objective) {
  const Hypergraph& hg = phg.hypergraph();
  const BlockID from = phg.block(u);
  const bool km1 = objective != Objective::kCut;
  const bool cut = objective == Objective::kCut || objective == Objective::kSoed;
  Weight base = 0;
  for (NetID e : hg.incident_nets(u)) {
    const Weight w = hg.net_weight(e);
    const std::uint32_t size = hg.net_size(e);
    const std::uint32_t pf = phg.pin_count(e, from);
    if (km1)
      base += (pf == 1 ? w : 0) - w;
    if (cut && pf == size && size > 1)
      base -= w;
    if (pf == size)
      continue; // no other block in this net
    // Any order: best_move's ties go by (gain, weight, id) and the sums do not depend on it, so
    // a setless net's blocks are not sorted. Inlined where it is called (a dense row, a set,
    // a setless net's pairs): not inlined it cost pubmed k = 32 2.1 M instructions in calls.
    phg.for_each_block_unordered(e, [&](BlockID b) __attribute__((always_inline)) {
      if (b == from)
        return;
      Weight add = 0;
      if (km1)
        add += w;
      if (cut && phg.pin_count(e, b) == size - 1)
        add += w;
      if (!marked_[b]) {
        marked_[b] = 1;
        touched_.push_back(b);
      }
      score_[b] += add;
    });
  }
  return base;
}

MoveCandidate GainComputer::best_move(const PartitionedHypergraph& phg, NodeID u,
                                      Objective objective, std::span<const Weight> max_weights,
                                      bool any_block) {
  const Weight base = accumulate(phg, u, objective);
  const BlockID from = phg.block(u);
  BestMove best;
  auto consider = [&](BlockID t, Weight g) {
    if (t != from && phg.fits(u, t, max_weights))
      best.offer(t, g, phg.block_weight(t));
  };
  if (any_block) {
    for (BlockID t = 0; t < phg.k(); ++t)
      consider(t, base + score_[t]);
  } else {
    for (BlockID t : touched_)
      consider(t, base + score_[t]);
  }
  for (BlockID t : touched_) {
    score_[t] = 0;
    marked_[t] = 0;
  }
  touched_.clear();
  return best.move;
}

Weight GainComputer::gain(const PartitionedHypergraph& phg, NodeID u, BlockID to,
                          Objective objective) {
  const Weight g = accumulate(phg, u, objective) + score_[to];
  for (BlockID t : touched_) {
    score_[t] = 0;
    marked_[t] = 0;
  }
  touched_.clear();
  return g;
}

} // namespace gnnpart::hg
