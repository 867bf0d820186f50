#include "partition/multilevel/refinement/greedy_refiner.h"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart::ml {
namespace {

// Whether some block other than u's own has at least u's internal connection: without one,
// every move of u loses, whatever the block weights. Reads u's row alone.
bool may_gain(const GainCache& cache, NodeID u, BlockID own) {
  Weight internal = 0, most = -1;
  cache.for_each(u, [&](BlockID b, Weight conn) {
    if (b == own)
      internal = conn;
    else
      most = std::max(most, conn);
  });
  return most >= internal;
}

} // namespace

GreedyMove greedy_move(const PartitionedGraph& p, const BlockLimits& limits, const GainCache& cache,
                       NodeID u) {
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
    return {};
  const Weight gain = best_conn - internal;
  // A zero-gain move only where it evens the two blocks (constraint 0).
  if (gain < 0 ||
      (gain == 0 && p.block_weight(best) + p.graph().vertex_weight(u, 0) >= p.block_weight(own)))
    return {};
  return {best, gain};
}

Weight greedy_refine(PartitionedGraph& p, const BlockLimits& limits, int passes, std::uint64_t seed,
                     GainCache& cache, std::vector<NodeID>* first_list,
                     const std::vector<NodeID>* superset) {
  const CsrGraph& g = p.graph();
  Weight total = 0;
  // Vertices whose row changed in this pass (a neighbour moved): their may_gain is stale.
  std::vector<std::uint8_t> changed(g.num_nodes(), 0);
  std::vector<std::uint8_t> candidate;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t moved = 0;
    std::vector<NodeID> boundary =
        fm_pass_seeds(p, seed, pass, &cache, pass == 0 ? superset : nullptr);
    // The rows are read in parallel first: most boundary vertices have no move that gains, and
    // until a neighbour moves (which marks them changed) they keep none, so the sequential pass
    // below reads only the rows of the others. Same moves as reading every row in order.
    candidate.resize(boundary.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, boundary.size(), 1024),
                      [&](const auto& r) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                          candidate[i] = may_gain(cache, boundary[i], p.block(boundary[i]));
                      });
    std::fill(changed.begin(), changed.end(), 0);
    for (std::size_t i = 0; i < boundary.size(); ++i) {
      const NodeID u = boundary[i];
      if (!candidate[i] && !changed[u])
        continue;
      const BlockID own = p.block(u);
      const GreedyMove m = greedy_move(p, limits, cache, u);
      if (m.target == kInvalidBlockID)
        continue;
      p.move(u, m.target);
      cache.moved(g, u, own, m.target);
      for (const NodeID v : g.neighbors(u))
        changed[v] = 1;
      total += m.gain;
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
