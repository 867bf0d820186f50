#include "partition/multilevel/refinement/volume_refiner.h"

#include <algorithm>
#include <vector>

#include "core/block_count_lists.h"
#include "core/random.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/vertex_order.h"

namespace gnnpart::ml {
namespace {

// Per vertex, the (block, count) list of its closed neighbourhood.
BlockCountLists closed_neighbourhood_counts(const CsrGraph& g, std::span<const BlockID> blocks,
                                            BlockID k) {
  BlockCountLists counts(g.num_nodes(),
                         [&](NodeID u) { return std::min<EdgeID>(g.degree(u) + 1, k); });
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    counts.add(u, blocks[u]);
    for (NodeID v : g.neighbors(u))
      counts.add(u, blocks[v]);
  }
  return counts;
}

} // namespace

Weight volume_refine(PartitionedGraph& p, const BlockLimits& limits, int passes,
                     std::uint64_t seed) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  BlockCountLists counts = closed_neighbourhood_counts(g, p.blocks(), p.k());
  RatingMap<BlockID> present(p.k()); // blocks b: #w in N[u] with count_w(b) > 0
  Weight total = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const std::vector<NodeID> order = chunked_random_order(n, derive_seed(seed, 5, pass));
    Weight pass_gain = 0;
    for (NodeID u : order) {
      if (counts.lambda(u) <= 1)
        continue;
      const BlockID from = p.block(u);
      Weight loss_from = 0; // neighbourhoods that lose `from` entirely
      auto visit = [&](NodeID w) {
        counts.for_each(w, [&](BlockID b) { present.add(b, 1); });
        if (counts.count(w, from) == 1)
          ++loss_from;
      };
      visit(u);
      for (NodeID w : g.neighbors(u))
        visit(w);
      const Weight closed = static_cast<Weight>(g.degree(u)) + 1;
      BlockID best = kInvalidBlockID;
      Weight best_delta = 0; // volume change; negative is an improvement
      counts.for_each(u, [&](BlockID b) {
        if (b == from)
          return;
        const Weight delta = (closed - present.get(b)) - loss_from;
        if (delta < best_delta && p.fits(u, b, limits)) {
          best_delta = delta;
          best = b;
        }
      });
      present.clear();
      if (best == kInvalidBlockID)
        continue;
      p.move(u, best);
      counts.remove(u, from);
      counts.add(u, best);
      for (NodeID w : g.neighbors(u)) {
        counts.remove(w, from);
        counts.add(w, best);
      }
      pass_gain -= best_delta;
    }
    total += pass_gain;
    if (pass_gain == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
