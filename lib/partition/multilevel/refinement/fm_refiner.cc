#include "partition/multilevel/refinement/fm_refiner.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <tuple>

#include "core/random.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {
namespace {

struct Move {
  NodeID u;
  BlockID from;
};

class FmSearch {
public:
  FmSearch(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx)
      : p_(p), g_(p.graph()), limits_(limits), ctx_(ctx), map_(p.k()),
        state_(p.graph().num_nodes(), 0) {
    if (GainCache::supports(g_))
      cache_.emplace(g_, p.blocks(), p.k());
  }

  // Best move of u: (gain, target); target kInvalidBlockID when u has no neighbour elsewhere
  // or no such block has room.
  std::pair<Weight, BlockID> best_move(NodeID u) {
    const BlockID own = p_.block(u);
    if (cache_) {
      Weight internal = 0;
      BlockID best = kInvalidBlockID;
      Weight best_conn = 0;
      cache_->for_each(u, [&](BlockID b, Weight conn) {
        if (b == own) {
          internal = conn;
          return;
        }
        if (best != kInvalidBlockID &&
            (conn < best_conn ||
             (conn == best_conn && p_.block_weight(b) >= p_.block_weight(best))))
          return;
        if (!p_.fits(u, b, limits_))
          return;
        best = b;
        best_conn = conn;
      });
      return {best_conn - internal, best};
    }
    for (EdgeID e = g_.first_edge(u); e < g_.last_edge(u); ++e)
      map_.add(p_.block(g_.edge_target(e)), g_.edge_weight(e));
    const Weight internal = map_.get(own);
    BlockID best = kInvalidBlockID;
    Weight best_conn = 0;
    for (BlockID b : map_.keys()) {
      if (b == own)
        continue;
      const Weight conn = map_.get(b);
      if (best != kInvalidBlockID &&
          (conn < best_conn || (conn == best_conn && p_.block_weight(b) >= p_.block_weight(best))))
        continue;
      if (!p_.fits(u, b, limits_))
        continue;
      best = b;
      best_conn = conn;
    }
    map_.clear();
    return {best_conn - internal, best};
  }

  bool is_boundary(NodeID u) const {
    const BlockID own = p_.block(u);
    for (NodeID v : g_.neighbors(u))
      if (p_.block(v) != own)
        return true;
    return false;
  }

  // state: 0 free, 1 moved in this pass (locked), 2 in the current search's heap.
  Weight run(std::span<const NodeID> seeds, Rng& rng) {
    heap_ = {};
    touched_.clear();
    moves_.clear();
    for (NodeID s : seeds)
      push(s, rng);
    Weight gain_sum = 0, best_sum = 0;
    std::size_t best_len = 0;
    int bad = 0;
    while (!heap_.empty() && bad < ctx_.fm_max_bad) {
      auto [gain, tie, u] = heap_.top();
      heap_.pop();
      if (state_[u] == 1)
        continue;
      auto [actual, to] = best_move(u);
      if (to == kInvalidBlockID)
        continue;
      if (actual < gain) { // stale: re-insert with the current gain
        heap_.emplace(actual, rng(), u);
        continue;
      }
      const BlockID from = p_.block(u);
      move(u, to);
      state_[u] = 1;
      moves_.push_back({u, from});
      gain_sum += actual;
      if (gain_sum > best_sum) {
        best_sum = gain_sum;
        best_len = moves_.size();
        bad = 0;
      } else {
        ++bad;
      }
      for (NodeID v : g_.neighbors(u))
        if (state_[v] != 1 && g_.degree(v) <= ctx_.fm_max_degree)
          push(v, rng);
    }
    while (moves_.size() > best_len) {
      move(moves_.back().u, moves_.back().from);
      moves_.pop_back();
    }
    for (NodeID v : touched_)
      if (state_[v] == 2)
        state_[v] = 0;
    return best_sum;
  }

  void reset_pass() { std::fill(state_.begin(), state_.end(), 0); }
  bool locked(NodeID u) const { return state_[u] == 1; }

private:
  void move(NodeID u, BlockID to) {
    const BlockID from = p_.block(u);
    p_.move(u, to);
    if (cache_)
      cache_->moved(g_, u, from, to);
  }

  void push(NodeID v, Rng& rng) {
    auto [gain, to] = best_move(v);
    if (to == kInvalidBlockID)
      return;
    if (state_[v] == 0) {
      state_[v] = 2;
      touched_.push_back(v);
    }
    heap_.emplace(gain, rng(), v);
  }

  PartitionedGraph& p_;
  const CsrGraph& g_;
  const BlockLimits& limits_;
  const RefinementContext& ctx_;
  RatingMap<BlockID> map_;
  std::optional<GainCache> cache_;
  std::vector<std::uint8_t> state_;
  std::priority_queue<std::tuple<Weight, std::uint64_t, NodeID>> heap_;
  std::vector<NodeID> touched_;
  std::vector<Move> moves_;
};

} // namespace

Weight fm_refine(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                 std::uint64_t seed) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  FmSearch search(p, limits, ctx);
  Weight total = 0;
  const auto seeds_per_search = static_cast<std::size_t>(std::max(1, ctx.fm_seeds));
  for (int pass = 0; pass < ctx.fm_passes; ++pass) {
    Rng rng(derive_seed(seed, 4, static_cast<std::uint64_t>(pass)));
    std::vector<NodeID> boundary;
    for (NodeID u = 0; u < n; ++u)
      if (search.is_boundary(u))
        boundary.push_back(u);
    std::shuffle(boundary.begin(), boundary.end(), rng);
    search.reset_pass();
    Weight pass_gain = 0;
    std::vector<NodeID> seeds;
    for (std::size_t i = 0; i < boundary.size();) {
      seeds.clear();
      while (i < boundary.size() && seeds.size() < seeds_per_search) {
        const NodeID u = boundary[i++];
        if (!search.locked(u))
          seeds.push_back(u);
      }
      if (!seeds.empty())
        pass_gain += search.run(seeds, rng);
    }
    total += pass_gain;
    if (pass_gain == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
