#include "partition/multilevel/refinement/lp_refiner.h"

#include <algorithm>
#include <atomic>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/vertex_order.h"

namespace gnnpart::ml {

Weight lp_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  const BlockID k = p.k();
  tbb::enumerable_thread_specific<RatingMap<BlockID>> maps([k] { return RatingMap<BlockID>(k); });
  std::vector<BlockID> target(n);
  const int batches = std::max(1, ctx.batches_per_round);
  Weight total_gain = 0;
  std::vector<std::uint8_t> active(n, 1), next_active(n, 0);
  std::vector<NodeID> movers;

  for (int round = 0; round < ctx.lp_rounds; ++round) {
    const std::uint64_t round_seed = derive_seed(seed, 3, static_cast<std::uint64_t>(round));
    const std::vector<NodeID> order = chunked_random_order(n, round_seed);
    Weight round_gain = 0;
    for (int batch = 0; batch < batches; ++batch) {
      const SubRound sub = sub_round(n, batch, batches);
      parallel_over(sub, [&](const auto& r) {
        auto& map = maps.local();
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const NodeID u = order[i];
          const BlockID own = p.block(u);
          target[i] = kInvalidBlockID;
          if (!active[u])
            continue;
          bool boundary = false;
          for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
            const BlockID b = p.block(g.edge_target(e));
            boundary = boundary || b != own;
            map.add(b, g.edge_weight(e));
          }
          if (boundary) {
            Weight best = map.get(own);
            std::uint64_t best_tie = 0;
            for (BlockID b : map.keys()) {
              if (b == own)
                continue;
              const Weight r = map.get(b);
              if (r < best)
                continue;
              const std::uint64_t tie =
                  splitmix64(round_seed ^ (static_cast<std::uint64_t>(u) << 20) ^ b);
              const bool better = r > best || (target[i] != kInvalidBlockID && tie > best_tie);
              if (!better || !p.fits(u, b, limits))
                continue;
              target[i] = b;
              best = r;
              best_tie = tie;
            }
          }
          map.clear();
        }
      });
      for (std::size_t i = sub.begin; i < sub.end; ++i) {
        const BlockID to = target[i];
        if (to == kInvalidBlockID)
          continue;
        const NodeID u = order[i];
        const BlockID own = p.block(u);
        Weight conn_own = 0, conn_to = 0;
        for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
          const BlockID b = p.block(g.edge_target(e));
          if (b == own)
            conn_own += g.edge_weight(e);
          else if (b == to)
            conn_to += g.edge_weight(e);
        }
        if (conn_to > conn_own && p.try_move(u, to, limits)) {
          round_gain += conn_to - conn_own;
          movers.push_back(u);
        }
      }
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, movers.size(), 256), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i)
          for (NodeID v : g.neighbors(movers[i]))
            std::atomic_ref<std::uint8_t>(next_active[v]).store(1, std::memory_order_relaxed);
      });
      movers.clear();
    }
    total_gain += round_gain;
    if (round_gain == 0)
      break;
    active.swap(next_active);
    std::fill(next_active.begin(), next_active.end(), 0);
  }
  return total_gain;
}

} // namespace gnnpart::ml
