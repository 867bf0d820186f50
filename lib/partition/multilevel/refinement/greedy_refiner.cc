#include "partition/multilevel/refinement/greedy_refiner.h"

#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart::ml {

Weight greedy_refine(PartitionedGraph& p, const BlockLimits& limits, int passes, std::uint64_t seed,
                     GainCache& cache, std::vector<NodeID>* first_list) {
  const CsrGraph& g = p.graph();
  Weight total = 0;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t moved = 0;
    std::vector<NodeID> boundary = fm_pass_seeds(p, seed, pass, &cache);
    for (const NodeID u : boundary) {
      const BlockID own = p.block(u);
      Weight internal = 0, best_conn = 0;
      BlockID best = kInvalidBlockID;
      cache.for_each(u, [&](BlockID b, Weight conn) {
        if (b == own) {
          internal = conn;
          return;
        }
        const bool better = best == kInvalidBlockID || conn > best_conn ||
                            (conn == best_conn && p.block_weight(b) < p.block_weight(best));
        if (!better || !p.fits(u, b, limits))
          return;
        best = b;
        best_conn = conn;
      });
      if (best == kInvalidBlockID)
        continue;
      const Weight gain = best_conn - internal;
      // A zero-gain move only where it evens the two blocks (constraint 0).
      if (gain < 0 ||
          (gain == 0 && p.block_weight(best) + g.vertex_weight(u, 0) >= p.block_weight(own)))
        continue;
      p.move(u, best);
      cache.moved(g, u, own, best);
      total += gain;
      ++moved;
    }
    if (pass == 0 && first_list)
      *first_list = std::move(boundary);
    if (moved == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
