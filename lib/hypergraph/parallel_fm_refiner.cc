#include "hypergraph/parallel_fm_refiner.h"

#include <algorithm>
#include <memory>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/fm_batches.h"
#include "core/indexed_heap.h"
#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {
namespace {

struct Move {
  NodeID u;
  BlockID to; // the target (in a search's prefix) or the block it came from (when applied)
};

// Deltas per (key, block), key a net or a vertex, for the few keys one search changes: an
// open-addressing hash table (O(1) per update, also on hub nets at large k), forgotten in
// O(entries) by reset().
class DeltaMap {
public:
  DeltaMap(std::size_t keys, std::size_t blocks)
      : blocks_(blocks), stamp_of_(keys, 0), table_(kInitialSize, {kEmpty, 0}) {}
  bool any(std::size_t key) const { return stamp_of_[key] == stamp_; }
  std::int64_t get(std::size_t key, BlockID b) const {
    if (!any(key))
      return 0;
    const std::uint64_t x = key * blocks_ + b;
    for (std::size_t i = home(x);; i = (i + 1) & (table_.size() - 1)) {
      if (table_[i].key == x)
        return table_[i].delta;
      if (table_[i].key == kEmpty)
        return 0;
    }
  }
  // delta(key, b) += d; returns the new delta.
  std::int64_t add(std::size_t key, BlockID b, std::int64_t d) {
    stamp_of_[key] = stamp_;
    if (2 * (used_.size() + 1) > table_.size())
      grow();
    return table_[find_or_insert(key * blocks_ + b)].delta += d;
  }
  void reset() {
    for (std::size_t i : used_)
      table_[i].key = kEmpty;
    used_.clear();
    ++stamp_;
  }

private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::size_t kInitialSize = 1024;
  struct Entry {
    std::uint64_t key;
    std::int64_t delta;
  };
  std::size_t home(std::uint64_t x) const {
    return static_cast<std::size_t>((x * 0x9E3779B97F4A7C15ull) >> (64 - log_size_));
  }
  std::size_t find_or_insert(std::uint64_t x) {
    std::size_t i = home(x);
    while (table_[i].key != x && table_[i].key != kEmpty)
      i = (i + 1) & (table_.size() - 1);
    if (table_[i].key == kEmpty) {
      table_[i] = {x, 0};
      used_.push_back(i);
    }
    return i;
  }
  void grow() {
    std::vector<Entry> old(table_.size() * 2, {kEmpty, 0});
    old.swap(table_);
    ++log_size_;
    used_.clear();
    for (const Entry& e : old)
      if (e.key != kEmpty)
        table_[find_or_insert(e.key)].delta = e.delta;
  }

  std::uint64_t blocks_;
  std::vector<std::uint32_t> stamp_of_; // == stamp_: the key has entries
  std::uint32_t stamp_ = 1;
  std::vector<Entry> table_;
  unsigned log_size_ = 10; // table_.size() == 2^log_size_
  std::vector<std::size_t> used_;
};

// A search's own view: the partition and the km1 gain cache as frozen at the batch's start,
// plus the search's moves: blocks of moved vertices, block weight deltas, pin count deltas per
// (net, block), and gain cache deltas per vertex, conn(v, b) and benefit(v) (under block id k),
// kept exact by the cache's own update rules (Km1GainCache::move), as Mt-KaHyPar's delta
// gain cache.
class LocalView {
public:
  LocalView(const PartitionedHypergraph& phg, const Km1GainCache& cache,
            std::span<const Weight> max_weights)
      : phg_(phg), hg_(phg.hypergraph()), cache_(cache), max_weights_(max_weights), k_(phg.k()),
        local_block_(phg.num_nodes(), kInvalidBlockID), pins_(phg.hypergraph().num_nets(), phg.k()),
        gains_(phg.num_nodes(), std::size_t{phg.k()} + 1),
        weight_delta_(static_cast<std::size_t>(phg.k()) * phg.ncon(), 0) {}

  BlockID block(NodeID v) const {
    return local_block_[v] == kInvalidBlockID ? phg_.block(v) : local_block_[v];
  }
  bool moved(NodeID v) const { return local_block_[v] != kInvalidBlockID; }

  // Best feasible target of u in this view, with the gain cache's tie rules (most connected,
  // then lighter block, then lower id).
  MoveCandidate best_move(NodeID u) {
    const BlockID from = block(u);
    Best best;
    if (!gains_.any(u)) { // consider() passes over blocks without a connection
      cache_.for_each_positive_conn(u, [&](BlockID t, Weight ct) {
        if (t != from)
          consider(best, u, t, ct);
      });
      return finish(best, cache_.base(u));
    }
    cache_.for_each_conn(u, [&](BlockID t, Weight ct) {
      if (t != from)
        consider(best, u, t, ct + gains_.get(u, t));
    });
    return finish(best, cache_.base(u) + gains_.get(u, k_));
  }

  // u's best move after a move from -> to, given that `target` was its best before: as
  // sequential FM's re-rating, the best of {target, to, from} unless target was `from`, else
  // (or when none of them fits) a full scan.
  MoveCandidate rerate(NodeID u, BlockID target, BlockID from, BlockID to) {
    if (target != from) {
      const BlockID candidates[] = {target, to, from};
      if (const MoveCandidate mc = best_of(u, candidates); mc.to != kInvalidBlockID)
        return mc;
    }
    return best_move(u);
  }

  // Moves u to `to` in this view; returns the km1 decrease. Appends the nets with at most
  // max_touch pins whose pins' gains changed.
  Weight move(NodeID u, BlockID to, NodeID max_touch, std::vector<NetID>& touched) {
    const BlockID from = block(u);
    local_block_[u] = to;
    moved_.push_back(u);
    const int ncon = phg_.ncon();
    for (int c = 0; c < ncon; ++c) {
      const Weight w = hg_.vertex_weight(u, c);
      weight_delta_[static_cast<std::size_t>(from) * ncon + c] -= w;
      weight_delta_[static_cast<std::size_t>(to) * ncon + c] += w;
    }
    Weight delta = 0, base = 0; // base(u) in `to`
    for (NetID e : hg_.incident_nets(u)) {
      const Weight w = hg_.net_weight(e);
      const std::int64_t pf = phg_.pin_count(e, from) + pins_.add(e, from, -1);
      const std::int64_t pt = phg_.pin_count(e, to) + pins_.add(e, to, 1);
      bool changed = false;
      if (pf == 0) {
        delta += w;
        for (NodeID v : hg_.pins(e))
          gains_.add(v, from, -w);
        changed = true;
      } else if (pf == 1) {
        add_to_other_pin(e, u, from, w);
        changed = true;
      }
      if (pt == 1) {
        delta -= w;
        for (NodeID v : hg_.pins(e))
          gains_.add(v, to, w);
        changed = true;
      } else if (pt == 2) {
        add_to_other_pin(e, u, to, -w);
        changed = true;
      }
      if (changed && hg_.net_size(e) <= max_touch)
        touched.push_back(e);
      if (pt != 1)
        base -= w;
    }
    gains_.add(u, k_, base - (cache_.base(u) + gains_.get(u, k_)));
    return delta;
  }

  // Forgets the search's moves.
  void reset() {
    for (NodeID v : moved_)
      local_block_[v] = kInvalidBlockID;
    moved_.clear();
    pins_.reset();
    gains_.reset();
    std::fill(weight_delta_.begin(), weight_delta_.end(), 0);
  }

private:
  struct Best {
    BlockID to = kInvalidBlockID;
    Weight conn = -1;
    Weight weight = 0;
  };

  // As Km1GainCache::best_of, on this view.
  MoveCandidate best_of(NodeID u, std::span<const BlockID> candidates) const {
    const BlockID from = block(u);
    const Weight base = cache_.base(u) + gains_.get(u, k_);
    BestMove best;
    for (BlockID t : candidates) {
      if (t >= k_ || t == from || t == best.move.to)
        continue;
      const Weight ct = cache_.conn(u, t) + gains_.get(u, t);
      if (ct == 0 || !fits(u, t))
        continue;
      best.offer(t, base + ct, block_weight(t));
    }
    return best.move;
  }
  // benefit(v) += w for the pin v != u of e in block b (the only one there).
  void add_to_other_pin(NetID e, NodeID u, BlockID b, Weight w) {
    for (NodeID v : hg_.pins(e))
      if (v != u && block(v) == b) {
        gains_.add(v, k_, w);
        return;
      }
  }
  Weight block_weight(BlockID b) const {
    return phg_.block_weight(b) + weight_delta_[static_cast<std::size_t>(b) * phg_.ncon()];
  }
  bool fits(NodeID u, BlockID b) const {
    const int ncon = phg_.ncon();
    for (int c = 0; c < ncon; ++c) {
      const std::size_t i = static_cast<std::size_t>(b) * ncon + c;
      if (phg_.block_weight(b, c) + weight_delta_[i] + hg_.vertex_weight(u, c) > max_weights_[i])
        return false;
    }
    return true;
  }
  void consider(Best& best, NodeID u, BlockID t, Weight ct) const {
    if (ct <= 0 || ct < best.conn)
      return;
    const Weight bw = block_weight(t);
    if (ct == best.conn && bw >= best.weight)
      return;
    if (!fits(u, t))
      return;
    best = {t, ct, bw};
  }
  static MoveCandidate finish(const Best& best, Weight base) {
    if (best.to == kInvalidBlockID)
      return {};
    return {best.to, base + best.conn};
  }

  const PartitionedHypergraph& phg_;
  const Hypergraph& hg_;
  const Km1GainCache& cache_;
  std::span<const Weight> max_weights_;
  BlockID k_;
  std::vector<BlockID> local_block_; // kInvalidBlockID: not moved by this search
  std::vector<NodeID> moved_;
  DeltaMap pins_;                    // Phi(e, b) deltas
  DeltaMap gains_;                   // conn(v, b) deltas, base(v) under b = k
  std::vector<Weight> weight_delta_; // k * ncon
};

// One thread's view and search state.
struct Worker {
  Worker(const PartitionedHypergraph& phg, const Km1GainCache& cache,
         std::span<const Weight> max_weights)
      : view(phg, cache, max_weights), heap(phg.num_nodes()), rated(phg.num_nodes(), 0),
        target(phg.num_nodes(), 0) {}
  LocalView view;
  IndexedMaxHeap heap;
  std::vector<std::uint32_t> rated; // == move_stamp: re-rated after this move
  std::uint32_t move_stamp = 0;
  std::vector<BlockID> target; // of vertices in the heap: their best block when rated
  std::vector<NetID> touched;
  std::vector<Move> moves;
  std::size_t best_length = 0;
};

// One localized search from `seeds` on w's view (as a search of sequential FM); leaves its moves
// in w.moves, the best prefix's length in w.best_length.
void run_search(Worker& w, const Hypergraph& hg, std::span<const NodeID> seeds,
                const std::vector<std::uint8_t>& locked, const RefinementContext& rc) {
  LocalView& view = w.view;
  IndexedMaxHeap& heap = w.heap;
  heap.clear();
  for (NodeID u : seeds) {
    if (heap.contains(u))
      continue;
    const MoveCandidate mc = view.best_move(u);
    if (mc.to != kInvalidBlockID && mc.gain >= rc.fm_min_seed_gain) {
      heap.push(u, mc.gain);
      w.target[u] = mc.to;
    }
  }
  w.moves.clear();
  Weight current = 0, best = 0;
  std::size_t best_length = 0;
  while (!heap.empty()) {
    const NodeID u = heap.pop();
    const MoveCandidate mc = view.best_move(u);
    if (mc.to == kInvalidBlockID)
      continue;
    if (!heap.empty() && mc.gain < heap.top_key()) {
      heap.push(u, mc.gain);
      w.target[u] = mc.to;
      continue;
    }
    const BlockID from = view.block(u);
    w.touched.clear();
    current += view.move(u, mc.to, rc.max_update_net_size, w.touched);
    w.moves.push_back({u, mc.to});
    if (current > best) {
      best = current;
      best_length = w.moves.size();
    } else if (w.moves.size() - best_length > rc.fm_max_moves_without_improvement) {
      break;
    }
    ++w.move_stamp;
    for (NetID e : w.touched) {
      for (NodeID v : hg.pins(e)) {
        if (locked[v] || view.moved(v) || w.rated[v] == w.move_stamp)
          continue;
        w.rated[v] = w.move_stamp;
        const MoveCandidate mv =
            view.rerate(v, heap.contains(v) ? w.target[v] : mc.to, from, mc.to);
        if (mv.to == kInvalidBlockID) {
          if (heap.contains(v))
            heap.remove(v);
        } else {
          heap.push_or_update(v, mv.gain);
          w.target[v] = mv.to;
        }
      }
    }
  }
  w.best_length = best_length;
}

// Scratch space of apply_search.
struct Applier {
  std::vector<Move> applied; // (vertex, block it came from)
  std::vector<Weight> bound; // k * ncon: max(limit, weight before the search)
  std::vector<NetID> touched;
};

// Applies the best prefix (the first `length` moves) of one search to phg and the cache in
// order, each move's gain taken from the exact cache; skips vertices locked (moved by an earlier
// search of the round). Rolls back to the best prefix of what it really gained that leaves no
// block above max(its limit, its weight before). Locks every vertex the search moved, as
// sequential FM moves a vertex at most once per round. Returns the gain kept (>= 0).
Weight apply_search(PartitionedHypergraph& phg, Km1GainCache& cache,
                    std::span<const Weight> max_weights, std::span<const Move> moves,
                    std::size_t length, std::vector<std::uint8_t>& locked, Applier& a) {
  const Hypergraph& hg = phg.hypergraph();
  const int ncon = phg.ncon();
  a.applied.clear();
  a.bound.assign(phg.block_weights().begin(), phg.block_weights().end());
  for (std::size_t i = 0; i < a.bound.size(); ++i)
    a.bound[i] = std::max(a.bound[i], max_weights[i]);
  Weight sum = 0, best = 0;
  std::size_t best_length = 0;
  int over = 0; // (block, constraint) pairs above their bound
  for (const Move& m : moves.first(length)) {
    const BlockID from = phg.block(m.u);
    if (locked[m.u] || from == m.to)
      continue;
    const std::span<const Weight> bw = phg.block_weights();
    for (int c = 0; c < ncon; ++c) {
      const Weight w = hg.vertex_weight(m.u, c);
      const std::size_t f = static_cast<std::size_t>(from) * ncon + c;
      const std::size_t t = static_cast<std::size_t>(m.to) * ncon + c;
      over -= bw[f] > a.bound[f] && bw[f] - w <= a.bound[f];
      over += bw[t] <= a.bound[t] && bw[t] + w > a.bound[t];
    }
    a.touched.clear();
    sum += cache.move(phg, m.u, m.to, 0, a.touched);
    a.applied.push_back({m.u, from});
    if (over == 0 && sum > best) {
      best = sum;
      best_length = a.applied.size();
    }
  }
  for (std::size_t j = a.applied.size(); j > best_length; --j) {
    a.touched.clear();
    cache.move(phg, a.applied[j - 1].u, a.applied[j - 1].to, 0, a.touched);
  }
  for (const Move& m : moves)
    locked[m.u] = 1;
  return best;
}

// The boundary vertices, shuffled as sequential FM's seeds of round `round`.
void round_seeds(const PartitionedHypergraph& phg, std::uint64_t seed, int round,
                 std::vector<std::uint8_t>& is_boundary, std::vector<NodeID>& seeds) {
  const NodeID n = phg.num_nodes();
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      is_boundary[u] = phg.is_boundary(u) ? 1 : 0;
  });
  seeds.clear();
  for (NodeID u = 0; u < n; ++u)
    if (is_boundary[u])
      seeds.push_back(u);
  Rng rng(derive_seed(seed, 0xF3, static_cast<std::uint64_t>(round)));
  std::shuffle(seeds.begin(), seeds.end(), rng);
}

} // namespace

Weight parallel_fm_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                          std::span<const Weight> max_weights, std::uint64_t seed,
                          Km1GainCache& cache) {
  const NodeID n = phg.num_nodes();
  const Hypergraph& hg = phg.hypergraph();
  const RefinementContext& rc = ctx.refinement;
  tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers;
  std::vector<std::uint8_t> locked(n, 0), is_boundary(n, 0);
  const auto seeds_per_search = static_cast<std::size_t>(std::max(1, rc.fm_seeds_per_search));
  // Two searches per thread at least, so that the threads stay busy on many cores.
  const auto max_batch = static_cast<std::size_t>(
      std::max({1, rc.fm_batch_searches, 2 * tbb::this_task_arena::max_concurrency()}));
  std::vector<NodeID> boundary, seeds;
  std::vector<std::size_t> seeds_begin; // search s has seeds [seeds_begin[s], seeds_begin[s+1])
  std::vector<std::vector<Move>> moves(max_batch); // of the batch's searches
  std::vector<std::size_t> best_lengths(max_batch);
  Applier applier;
  Weight total = 0;
  Weight current_objective = phg.objective(ctx.objective);
  for (int round = 0; round < rc.fm_rounds; ++round) {
    round_seeds(phg, seed, round, is_boundary, boundary);
    std::fill(locked.begin(), locked.end(), 0);
    const std::size_t batch_size =
        fm_batch_size(boundary.size(), seeds_per_search, rc.fm_min_batches, max_batch);
    Weight round_gain = 0;
    for (std::size_t next = 0; next < boundary.size();) {
      const std::size_t searches = next_fm_batch(boundary, next, locked, seeds_per_search,
                                                 batch_size, seeds, seeds_begin);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, searches, 1), [&](const auto& r) {
        std::unique_ptr<Worker>& w = workers.local();
        if (!w)
          w = std::make_unique<Worker>(phg, cache, max_weights);
        for (std::size_t s = r.begin(); s != r.end(); ++s) {
          run_search(*w, hg,
                     std::span<const NodeID>(seeds.data() + seeds_begin[s],
                                             seeds_begin[s + 1] - seeds_begin[s]),
                     locked, rc);
          moves[s].assign(w->moves.begin(), w->moves.end());
          best_lengths[s] = w->best_length;
          w->view.reset();
        }
      });
      for (std::size_t s = 0; s < searches; ++s)
        round_gain +=
            apply_search(phg, cache, max_weights, moves[s], best_lengths[s], locked, applier);
    }
    total += round_gain;
    current_objective -= round_gain;
    if (!fm_next_round(round_gain, current_objective, rc))
      break;
  }
  return total;
}

} // namespace gnnpart::hg
