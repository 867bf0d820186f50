#include "partition/multilevel/refinement/fm_refiner.h"

#include <algorithm>
#include <optional>

#include "core/indexed_heap.h"
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
        state_(p.graph().num_nodes(), kFree), target_(p.graph().num_nodes(), 0),
        heap_(p.graph().num_nodes()) {
    if (GainCache::supports(g_))
      cache_.emplace(g_, p.blocks(), p.k());
  }

  // Best move of u: (gain, target); target kInvalidBlockID when u has no neighbour elsewhere
  // or no such block has room. Ties: the lighter block, then the first found.
  std::pair<Weight, BlockID> best_move(NodeID u) {
    const BlockID own = p_.block(u);
    Weight internal = 0;
    BlockID best = kInvalidBlockID;
    Weight best_conn = 0;
    auto offer = [&](BlockID b, Weight conn) {
      if (b == own) {
        internal = conn;
        return;
      }
      if (best != kInvalidBlockID &&
          (conn < best_conn || (conn == best_conn && p_.block_weight(b) >= p_.block_weight(best))))
        return;
      if (!p_.fits(u, b, limits_))
        return;
      best = b;
      best_conn = conn;
    };
    if (cache_) {
      cache_->for_each(u, offer);
      return {best_conn - internal, best};
    }
    for (EdgeID e = g_.first_edge(u); e < g_.last_edge(u); ++e)
      map_.add(p_.block(g_.edge_target(e)), g_.edge_weight(e));
    for (BlockID b : map_.keys())
      offer(b, map_.get(b));
    map_.clear();
    return {best_conn - internal, best};
  }

  // u's best move after a neighbour moved from -> to, given that `target` was its best before.
  // Only conn(u, from), conn(u, to) and the weights of from and to changed, so unless the old
  // target is one of them, the best is among {target, from, to}.
  std::pair<Weight, BlockID> rerate(NodeID u, BlockID target, BlockID from, BlockID to) {
    if (!cache_ || target == from || target == to)
      return best_move(u);
    const BlockID own = p_.block(u);
    const Weight internal = cache_->conn(u, own);
    BlockID best = target;
    Weight best_conn = cache_->conn(u, target);
    for (const BlockID b : {from, to}) {
      if (b == own)
        continue;
      const Weight conn = cache_->conn(u, b);
      if (conn == 0 || conn < best_conn ||
          (conn == best_conn && p_.block_weight(b) >= p_.block_weight(best)))
        continue;
      if (!p_.fits(u, b, limits_))
        continue;
      best = b;
      best_conn = conn;
    }
    return {best_conn - internal, best};
  }

  bool is_boundary(NodeID u) const {
    const BlockID own = p_.block(u);
    for (NodeID v : g_.neighbors(u))
      if (p_.block(v) != own)
        return true;
    return false;
  }

  Weight run(std::span<const NodeID> seeds) {
    heap_.clear();
    touched_.clear();
    moves_.clear();
    for (NodeID s : seeds)
      insert(s);
    Weight gain_sum = 0, best_sum = 0;
    std::size_t best_len = 0;
    int bad = 0;
    while (!heap_.empty() && bad < ctx_.fm_max_bad) {
      const Weight key = heap_.top_key();
      const NodeID u = heap_.top();
      // The key is exact for u's connections, but its target may have filled up since.
      auto [actual, to] = p_.fits(u, target_[u], limits_) ? std::pair{key, target_[u]}
                                                           : best_move(u);
      if (to == kInvalidBlockID) {
        heap_.pop();
        continue;
      }
      if (actual < key) { // stale: re-queue with the current gain
        heap_.update(u, actual);
        target_[u] = to;
        continue;
      }
      heap_.pop();
      const BlockID from = p_.block(u);
      move(u, to);
      state_[u] = kLocked;
      moves_.push_back({u, from});
      gain_sum += actual;
      if (gain_sum > best_sum) {
        best_sum = gain_sum;
        best_len = moves_.size();
        bad = 0;
      } else {
        ++bad;
      }
      for (NodeID v : g_.neighbors(u)) {
        if (state_[v] == kLocked || g_.degree(v) > ctx_.fm_max_degree)
          continue;
        if (heap_.contains(v)) {
          const auto [gain, t] = rerate(v, target_[v], from, to);
          if (t == kInvalidBlockID) {
            heap_.remove(v);
          } else {
            heap_.update(v, gain);
            target_[v] = t;
          }
        } else {
          insert(v);
        }
      }
    }
    while (moves_.size() > best_len) {
      move(moves_.back().u, moves_.back().from);
      moves_.pop_back();
    }
    for (NodeID v : touched_)
      if (state_[v] == kQueued)
        state_[v] = kFree;
    return best_sum;
  }

  void reset_pass() { std::fill(state_.begin(), state_.end(), kFree); }
  bool locked(NodeID u) const { return state_[u] == kLocked; }

private:
  // kQueued: entered the current search (in its heap or dropped from it).
  enum : std::uint8_t { kFree, kLocked, kQueued };

  void move(NodeID u, BlockID to) {
    const BlockID from = p_.block(u);
    p_.move(u, to);
    if (cache_)
      cache_->moved(g_, u, from, to);
  }

  void insert(NodeID v) {
    auto [gain, to] = best_move(v);
    if (to == kInvalidBlockID)
      return;
    if (state_[v] == kFree) {
      state_[v] = kQueued;
      touched_.push_back(v);
    }
    heap_.push(v, gain);
    target_[v] = to;
  }

  PartitionedGraph& p_;
  const CsrGraph& g_;
  const BlockLimits& limits_;
  const RefinementContext& ctx_;
  RatingMap<BlockID> map_;
  std::optional<GainCache> cache_;
  std::vector<std::uint8_t> state_;
  std::vector<BlockID> target_; // of vertices in the heap: their best block when rated
  IndexedMaxHeap heap_;
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
        pass_gain += search.run(seeds);
    }
    total += pass_gain;
    if (pass_gain == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
