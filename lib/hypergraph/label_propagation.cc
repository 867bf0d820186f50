#include <algorithm>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

Weight label_propagation_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                                std::span<const Weight> max_weights, std::uint64_t seed) {
  const NodeID n = phg.num_nodes();
  const BlockID k = phg.k();
  if (k < 2)
    return 0;
  const Objective objective = ctx.objective;
  tbb::enumerable_thread_specific<GainComputer> computers([k] { return GainComputer(k); });
  GainComputer exact(k);
  std::vector<BlockID> proposal(n);
  std::vector<NodeID> candidates;
  Weight total = 0;
  for (int round = 0; round < ctx.refinement.lp_rounds; ++round) {
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 512), [&](const auto& r) {
      GainComputer& gc = computers.local();
      for (NodeID u = r.begin(); u != r.end(); ++u) {
        proposal[u] = kInvalidBlockID;
        if (!phg.is_boundary(u))
          continue;
        const MoveCandidate mc = gc.best_move(phg, u, objective, max_weights);
        if (mc.to != kInvalidBlockID && mc.gain > 0)
          proposal[u] = mc.to;
      }
    });
    candidates.clear();
    for (NodeID u = 0; u < n; ++u)
      if (proposal[u] != kInvalidBlockID)
        candidates.push_back(u);
    if (candidates.empty())
      break;
    Rng rng(derive_seed(seed, 0x1B, round));
    std::shuffle(candidates.begin(), candidates.end(), rng);
    Weight round_gain = 0;
    for (NodeID u : candidates) {
      const MoveCandidate mc = exact.best_move(phg, u, objective, max_weights);
      if (mc.to == kInvalidBlockID || mc.gain <= 0)
        continue;
      round_gain += phg.move(u, mc.to, objective);
    }
    total += round_gain;
    if (round_gain <= 0)
      break;
  }
  return total;
}

} // namespace gnnpart::hg
