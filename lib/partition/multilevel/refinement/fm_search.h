#pragma once
// One localized k-way FM search, over a view of the partition. The search starts from a few
// boundary seeds, repeatedly applies the best move (max edge-cut gain into a block with room) of
// the vertices around it, lets the gains go negative and records every move; the caller keeps
// the best prefix (moves()[0, best_len())); when it stops is FmStopRule's. Each vertex of a search
// sits once in an addressable max-heap keyed by its best gain; a move re-rates its neighbours
// (three candidate blocks when the old target stays valid and the view's conn() is cheap).
// Without ctx.fm_expand_target, a move does not bring its neighbours in its target block into
// the search: their own block gained the edge, so every gain of theirs fell (by w, or 2w back to
// the move's source); they still enter as seeds or as neighbours of a move from their side.
//
// Ties (ctx.fm_tie_break, with a cheap conn(): a gain cache, whose 32-bit entries bound every gain
// below 2^31): among moves of equal gain, one from a heavier block into a lighter one leaves the
// heap first, then the one rated last. Strict FM leaves blocks at their limit, so a zero-gain move
// that makes room is what lets a later positive move into that block fit; and last-rated-first
// keeps a search on the vertices its last moves changed, so it follows one chain of zero-gain
// moves along a boundary instead of alternating between its seeds' regions (LIFO gain buckets:
// Hagen, Huang and Kahng 1997; docs/generalisation.md).
//
// Balance ties (ctx.fm_balance_ties): of two prefixes with the same gain the one with the more
// even block weights (lower sum of squares) is the better, so a search keeps a chain of zero-gain
// moves out of a full block and may end with it (Mt-KaHyPar's localized FM likewise keeps an
// equal-gain move out of the heaviest block).
//
// A View provides: movable(v) (whether the search may touch v at all; checked before anything
// else of v is read); block(v); block_weight(b) (constraint 0, for ties and balance); fits(u, b);
// conn(v, b); for_each(v, f) calling f(block, conn) for every block v is connected to (its own
// included); cheap_conn() (conn() is O(1)-ish: a gain cache); move(u, to). The sequential refiner's
// view applies moves to the partition itself, the parallel refiner's keeps them in thread-local
// deltas over a frozen partition, the block-group refiner's (group_fm_refiner.h) applies them to
// the vertices of its own group of blocks only.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/indexed_heap.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/refinement/fm_stop_rule.h"

namespace gnnpart::ml {

struct FmMove {
  NodeID u;
  BlockID from;
  BlockID to;
};

// A search's per-vertex state, 9 bytes a vertex; between searches every entry is at rest (state
// free, heap position absent). Searches whose views' movable vertices are disjoint at any one
// time (the block-group FM's threads, group_fm_refiner.h) can share one: a search touches only
// the entries of vertices its view lets it move, and leaves them at rest when it returns.
struct FmVertexState {
  explicit FmVertexState(NodeID n)
      : state(n, 0), target(n, 0), heap_position(n, IndexedMaxHeap::kAbsent) {}
  std::vector<std::uint8_t> state;
  std::vector<BlockID> target; // of vertices in the heap: their best block when rated
  std::vector<std::uint32_t> heap_position;
};

template <typename View> class FmSearch {
public:
  FmSearch(View& view, const CsrGraph& graph, const RefinementContext& ctx)
      : FmSearch(view, graph, ctx, nullptr) {}
  // With the per-vertex state in `shared` (graph.num_nodes() entries at rest), which must
  // outlive the search.
  FmSearch(View& view, const CsrGraph& graph, const RefinementContext& ctx, FmVertexState& shared)
      : FmSearch(view, graph, ctx, &shared) {}
  FmSearch(const FmSearch&) = delete; // refers to its own state
  FmSearch& operator=(const FmSearch&) = delete;

  // Runs one search from `seeds`; `locked[v]` != 0: v may not move (moved earlier in the pass).
  // Returns the gain of the best prefix. The moves stay applied to the view.
  Weight run(std::span<const NodeID> seeds, std::span<const std::uint8_t> locked) {
    heap_.clear();
    stamp_ = 0;
    touched_.clear();
    moves_.clear();
    locked_ = locked;
    for (NodeID s : seeds)
      if (view_.movable(s) && !locked_[s] && state_[s] == kFree)
        insert(s);
    Weight gain_sum = 0, best_sum = 0;
    // With ctx.fm_balance_ties: the change of the sum of squared block weights (constraint 0)
    // since the search began, now and at the best prefix.
    Weight square_sum = 0, best_square_sum = 0;
    best_len_ = 0;
    FmStopRule stop(ctx_);
    while (!heap_.empty() && !stop.stops()) {
      const Weight key = gain_of(heap_.top_key());
      const NodeID u = heap_.top();
      // The key is exact for u's connections, but its target may have filled up since.
      auto [actual, to] = view_.fits(u, target_[u]) ? std::pair{key, target_[u]} : best_move(u);
      if (to == kInvalidBlockID) {
        heap_.pop();
        continue;
      }
      if (actual < key) { // stale: re-queue with the current gain
        heap_.update(u, key_of(actual, u, to));
        target_[u] = to;
        continue;
      }
      heap_.pop();
      const BlockID from = view_.block(u);
      if (ctx_.fm_balance_ties) {
        // (W_to + w)^2 + (W_from - w)^2 - W_to^2 - W_from^2: negative iff W_to + w < W_from.
        const Weight w = g_.vertex_weight(u, 0);
        square_sum += 2 * w * (view_.block_weight(to) - view_.block_weight(from) + w);
      }
      view_.move(u, to);
      state_[u] = kMoved;
      moves_.push_back({u, from, to});
      gain_sum += actual;
      if (gain_sum > best_sum ||
          (ctx_.fm_balance_ties && gain_sum == best_sum && square_sum < best_square_sum)) {
        best_square_sum = square_sum;
        best_sum = gain_sum;
        best_len_ = moves_.size();
        stop.improved();
      } else {
        stop.add(actual);
      }
      for (NodeID v : g_.neighbors(u)) {
        if (!view_.movable(v) || state_[v] == kMoved || locked_[v] ||
            g_.degree(v) > ctx_.fm_max_degree)
          continue;
        if (heap_.contains(v)) {
          const auto [gain, t] = rerate(v, target_[v], from, to);
          if (t == kInvalidBlockID) {
            heap_.remove(v);
          } else {
            heap_.update(v, key_of(gain, v, t));
            target_[v] = t;
          }
        } else if (ctx_.fm_expand_target || view_.block(v) != to) {
          insert(v);
        }
      }
    }
    for (NodeID v : touched_)
      state_[v] = kFree;
    heap_.clear(); // the rest of the state at rest, for a search that shares it
    return best_sum;
  }

  // Every move of the last search, in order; the first best_len() of them are its best prefix.
  const std::vector<FmMove>& moves() const { return moves_; }
  std::size_t best_len() const { return best_len_; }
  // Locks the vertices of the best prefix for the rest of the pass. The moves past it are rolled
  // back, and their vertices stay free for later searches of the pass.
  void lock_kept(std::span<std::uint8_t> locked) const {
    for (std::size_t j = 0; j < best_len_; ++j)
      locked[moves_[j].u] = 1;
  }

private:
  FmSearch(View& view, const CsrGraph& graph, const RefinementContext& ctx, FmVertexState* shared)
      : view_(view), g_(graph), ctx_(ctx),
        own_(shared ? std::nullopt : std::optional<FmVertexState>(graph.num_nodes())),
        vertices_(shared ? *shared : *own_), state_(vertices_.state.data()),
        target_(vertices_.target.data()), heap_(std::span(vertices_.heap_position)),
        ties_(ctx.fm_tie_break && view.cheap_conn()) {}

  // Search-local states (reset after each search). kQueued: entered the search (in its heap or
  // dropped from it); kMoved: moved by it.
  enum : std::uint8_t { kFree, kQueued, kMoved };

  // Whether block b with connection conn is a better target than `best`: more connection, then
  // the lighter block (then the first found).
  bool beats(BlockID b, Weight conn, BlockID best, Weight best_conn) const {
    return best == kInvalidBlockID || conn > best_conn ||
           (conn == best_conn && view_.block_weight(b) < view_.block_weight(best));
  }

  // Best move of u: (gain, target); target kInvalidBlockID when u has no neighbour elsewhere
  // or no such block has room. Ties: the lighter block, then the first found.
  std::pair<Weight, BlockID> best_move(NodeID u) {
    const BlockID own = view_.block(u);
    Weight internal = 0;
    BlockID best = kInvalidBlockID;
    Weight best_conn = 0;
    view_.for_each(u, [&](BlockID b, Weight conn) {
      if (b == own) {
        internal = conn;
        return;
      }
      if (!beats(b, conn, best, best_conn) || !view_.fits(u, b))
        return;
      best = b;
      best_conn = conn;
    });
    return {best_conn - internal, best};
  }

  // u's best move after a neighbour moved from -> to, given that `target` was its best before.
  // Only conn(u, from), conn(u, to) and the weights of from and to changed, so unless the old
  // target is one of them, the best is among {target, from, to}.
  std::pair<Weight, BlockID> rerate(NodeID u, BlockID target, BlockID from, BlockID to) {
    if (!view_.cheap_conn() || target == from || target == to)
      return best_move(u);
    const BlockID own = view_.block(u);
    const Weight internal = view_.conn(u, own);
    BlockID best = target;
    Weight best_conn = view_.conn(u, target);
    for (const BlockID b : {from, to}) {
      if (b == own)
        continue;
      const Weight conn = view_.conn(u, b);
      if (conn == 0 || !beats(b, conn, best, best_conn) || !view_.fits(u, b))
        continue;
      best = b;
      best_conn = conn;
    }
    return {best_conn - internal, best};
  }

  // Heap key of v's move to `to` with `gain`: the gain alone, or with ties_ the gain in the high
  // 32 bits, then whether the move goes into a lighter block (bit 31), then a stamp that grows
  // with every rating of the search (bits 0-30).
  Weight key_of(Weight gain, NodeID v, BlockID to) {
    if (!ties_)
      return gain;
    const Weight lighter =
        view_.block_weight(to) < view_.block_weight(view_.block(v)) ? kLighterBit : 0;
    const Weight stamp = stamp_;
    if (stamp_ < kLighterBit - 1)
      ++stamp_;
    return gain * kGainUnit + lighter + stamp;
  }
  Weight gain_of(Weight key) const { return ties_ ? key >> 32 : key; }

  void insert(NodeID v) {
    auto [gain, to] = best_move(v);
    if (to == kInvalidBlockID)
      return;
    if (state_[v] == kFree) {
      state_[v] = kQueued;
      touched_.push_back(v);
    }
    heap_.push(v, key_of(gain, v, to));
    target_[v] = to;
  }

  View& view_;
  const CsrGraph& g_;
  const RefinementContext& ctx_;
  std::span<const std::uint8_t> locked_;
  std::optional<FmVertexState> own_; // unless shared
  FmVertexState& vertices_;
  std::uint8_t* state_;
  BlockID* target_; // of vertices in the heap: their best block when rated
  IndexedMaxHeap heap_;
  std::vector<NodeID> touched_;
  std::vector<FmMove> moves_;
  std::size_t best_len_ = 0;
  static constexpr Weight kGainUnit = Weight{1} << 32;
  static constexpr Weight kLighterBit = Weight{1} << 31;
  bool ties_ = false;
  Weight stamp_ = 0; // ratings in this search (saturates below kLighterBit)
};

// Localized searches from `boundary` in its order, each from the next fm_seeds unlocked seeds;
// a search's best prefix stays applied and locked for the pass, the rest is rolled back (its
// vertices stay free: docs/generalisation.md, locking them froze the region around every
// failed search). Returns the gain.
template <typename View>
Weight run_searches(View& view, FmSearch<View>& search, std::span<const NodeID> boundary,
                    std::span<std::uint8_t> locked, const RefinementContext& ctx) {
  const auto seeds_per_search = static_cast<std::size_t>(ctx.fm_seeds > 1 ? ctx.fm_seeds : 1);
  Weight gain = 0;
  std::vector<NodeID> seeds;
  for (std::size_t i = 0; i < boundary.size();) {
    seeds.clear();
    while (i < boundary.size() && seeds.size() < seeds_per_search) {
      const NodeID u = boundary[i++];
      if (!locked[u])
        seeds.push_back(u);
    }
    if (seeds.empty())
      continue;
    gain += search.run(seeds, locked);
    search.lock_kept(locked);
    const std::vector<FmMove>& moves = search.moves();
    for (std::size_t j = moves.size(); j > search.best_len(); --j)
      view.move(moves[j - 1].u, moves[j - 1].from);
  }
  return gain;
}

} // namespace gnnpart::ml
