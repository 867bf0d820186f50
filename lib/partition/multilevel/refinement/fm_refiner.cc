#include "partition/multilevel/refinement/fm_refiner.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <tbb/task_arena.h>

#include "core/random.h"

#include "partition/multilevel/objectives.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/group_fm_refiner.h"
#include "partition/multilevel/refinement/kept_gain_cache.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"

namespace gnnpart::ml {
namespace {

// The partition itself, with its gain cache when the edge weights fit one (null: connections
// are counted from the adjacency).
class SharedView {
public:
  SharedView(PartitionedGraph& p, const BlockLimits& limits, GainCache* cache)
      : p_(p), g_(p.graph()), limits_(limits), map_(p.k()), cache_(cache) {}

  BlockID block(NodeID v) const { return p_.block(v); }
  Weight block_weight(BlockID b) const { return p_.block_weight(b); }
  bool fits(NodeID u, BlockID b) const { return p_.fits(u, b, limits_); }
  bool movable(NodeID) const { return true; }
  bool cheap_conn() const { return cache_ != nullptr; }
  const GainCache* cache() const { return cache_; }
  Weight conn(NodeID v, BlockID b) const {
    if (cache_)
      return cache_->conn(v, b);
    Weight sum = 0;
    for (EdgeID e = g_.first_edge(v); e < g_.last_edge(v); ++e)
      if (p_.block(g_.edge_target(e)) == b)
        sum += g_.edge_weight(e);
    return sum;
  }
  template <typename F> void for_each(NodeID v, F&& f) {
    if (cache_) {
      cache_->for_each(v, f);
      return;
    }
    for (EdgeID e = g_.first_edge(v); e < g_.last_edge(v); ++e)
      map_.add(p_.block(g_.edge_target(e)), g_.edge_weight(e));
    for (BlockID b : map_.keys())
      f(b, map_.get(b));
    map_.clear();
  }
  void move(NodeID u, BlockID to) {
    const BlockID from = p_.block(u);
    p_.move(u, to);
    if (cache_)
      cache_->moved(g_, u, from, to);
  }

private:
  PartitionedGraph& p_;
  const CsrGraph& g_;
  const BlockLimits& limits_;
  RatingMap<BlockID> map_;
  GainCache* cache_;
};

// One pass of localized searches from the boundary in a seeded order; returns its gain.
Weight sequential_pass(const PartitionedGraph& p, SharedView& view, FmSearch<SharedView>& search,
                       std::vector<std::uint8_t>& locked, const RefinementContext& ctx,
                       std::uint64_t seed, int pass, std::vector<NodeID>& first,
                       const std::vector<NodeID>* superset) {
  const std::vector<NodeID> boundary =
      pass == 0 && !first.empty()
          ? std::move(first)
          : fm_pass_seeds(p, seed, pass, view.cache(), pass == 0 ? superset : nullptr);
  std::fill(locked.begin(), locked.end(), 0);
  return run_searches(view, search, boundary, locked, ctx);
}

// Up to ctx.fm_passes passes of run_pass(pass); stops after a pass without gain, or (with
// fm_min_pass_gain > 0) after one that gained less than that fraction of the cut it started
// from.
template <typename RunPass>
Weight repeat_passes(const PartitionedGraph& p, const RefinementContext& ctx, RunPass&& run_pass) {
  Weight cut = ctx.fm_min_pass_gain > 0 ? edge_cut(p.graph(), p.blocks()) : 0;
  Weight total = 0;
  for (int pass = 0; pass < ctx.fm_passes; ++pass) {
    const Weight gain = run_pass(pass);
    total += gain;
    if (gain == 0 || static_cast<double>(gain) < ctx.fm_min_pass_gain * static_cast<double>(cut))
      break;
    cut -= gain;
  }
  return total;
}

} // namespace

Weight fm_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed, KeptGainCache* kept) {
  const bool cached = kept ? kept->supports(p.graph()) : GainCache::supports(p.graph());
  KeptGainCache own;
  KeptGainCache& keep = kept ? *kept : own;
  const int threads = tbb::this_task_arena::max_concurrency();
  Weight gain = 0;
  if (ctx.fm_parallel && threads >= std::max(2, ctx.fm_parallel_min_threads) && cached) {
    GainCache& cache = keep.of(p);
    std::vector<NodeID> first = keep.take_seeds();
    const std::optional<std::vector<NodeID>> superset = keep.take_superset();
    if (ctx.fm_min_pass_gain <= 0) {
      // The first pass's seeds as parallel_fm_refine would find them, among the superset.
      if (first.empty() && superset)
        first = fm_pass_seeds(p, seed, 0, &cache, &*superset);
      gain = parallel_fm_refine(p, limits, ctx, seed, cache, std::move(first));
    } else {
      RefinementContext one_pass = ctx;
      one_pass.fm_passes = 1;
      gain = repeat_passes(p, ctx, [&](int pass) {
        return parallel_fm_refine(p, limits, one_pass, derive_seed(seed, 43, pass), cache);
      });
    }
  } else if (ctx.fm_block_groups && threads >= 2 && cached &&
             first_group_count(p.k(), threads) >= 2) {
    GainCache& cache = keep.of(p);
    std::vector<NodeID> first = keep.take_seeds();
    const std::optional<std::vector<NodeID>> superset = keep.take_superset();
    std::vector<std::uint8_t> locked(p.graph().num_nodes(), 0);
    gain = repeat_passes(p, ctx, [&](int pass) {
      const std::vector<NodeID> boundary =
          pass == 0 && !first.empty()
              ? std::move(first)
              : fm_pass_seeds(p, seed, pass, &cache, pass == 0 && superset ? &*superset : nullptr);
      std::fill(locked.begin(), locked.end(), 0);
      return group_fm_pass(p, limits, ctx, cache, boundary, locked, threads);
    });
  } else {
    SharedView view(p, limits, cached ? &keep.of(p) : nullptr);
    std::vector<NodeID> first = keep.take_seeds();
    const std::optional<std::vector<NodeID>> superset = keep.take_superset();
    FmSearch<SharedView> search(view, p.graph(), ctx);
    std::vector<std::uint8_t> locked(p.graph().num_nodes(), 0);
    gain = repeat_passes(p, ctx, [&](int pass) {
      return sequential_pass(p, view, search, locked, ctx, seed, pass, first,
                             superset ? &*superset : nullptr);
    });
  }
  if (cached && kept)
    kept->matched(p);
  return gain;
}

} // namespace gnnpart::ml
