#include "partition/multilevel/refinement/parallel_fm_refiner.h"

#include <algorithm>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/fm_batches.h"
#include "core/random.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {
namespace {

// A search's own view: the partition and gain cache as frozen at the batch's start, plus the
// moves of this search: blocks of moved vertices, block weight deltas, and a private copy of
// the gain cache row of every vertex next to a moved one (taken on first touch).
class LocalView {
public:
  LocalView(const PartitionedGraph& p, const GainCache& cache, const BlockLimits& limits)
      : p_(p), g_(p.graph()), cache_(cache), limits_(limits),
        local_block_(p.graph().num_nodes(), kInvalidBlockID),
        row_of_(p.graph().num_nodes(), kNoRow),
        weight_delta_(static_cast<std::size_t>(p.k()) * p.ncon(), 0) {}

  BlockID block(NodeID v) const {
    return local_block_[v] == kInvalidBlockID ? p_.block(v) : local_block_[v];
  }
  Weight block_weight(BlockID b) const {
    return p_.block_weight(b) + weight_delta_[static_cast<std::size_t>(b) * p_.ncon()];
  }
  bool fits(NodeID u, BlockID b) const {
    if (p_.is_fixed(u))
      return false;
    const int ncon = p_.ncon();
    for (int c = 0; c < ncon; ++c) {
      const Weight w = g_.vertex_weight(u, c);
      const std::size_t i = static_cast<std::size_t>(b) * ncon + c;
      if (w > 0 && p_.block_weight(b, c) + weight_delta_[i] + w > limits_.max(b, c))
        return false;
    }
    return true;
  }
  bool movable(NodeID) const { return true; }
  bool cheap_conn() const { return true; }
  Weight conn(NodeID v, BlockID b) const {
    const std::uint32_t r = row_of_[v];
    return r == kNoRow ? cache_.conn(v, b)
                       : GainCache::row_conn(entries_.data() + rows_[r].offset, rows_[r].size, b);
  }
  template <typename F> void for_each(NodeID v, F&& f) const {
    const std::uint32_t r = row_of_[v];
    if (r == kNoRow)
      cache_.for_each(v, f);
    else
      GainCache::row_for_each(entries_.data() + rows_[r].offset, rows_[r].size, cache_.k(), f);
  }
  void move(NodeID u, BlockID to) {
    const BlockID from = block(u);
    if (local_block_[u] == kInvalidBlockID)
      moved_.push_back(u);
    local_block_[u] = to;
    const int ncon = p_.ncon();
    for (int c = 0; c < ncon; ++c) {
      const Weight w = g_.vertex_weight(u, c);
      weight_delta_[static_cast<std::size_t>(from) * ncon + c] -= w;
      weight_delta_[static_cast<std::size_t>(to) * ncon + c] += w;
    }
    for (const BlockID b : {from, to})
      if (std::find(touched_blocks_.begin(), touched_blocks_.end(), b) == touched_blocks_.end())
        touched_blocks_.push_back(b);
    for (EdgeID e = g_.first_edge(u); e < g_.last_edge(u); ++e) {
      const auto w = static_cast<std::int32_t>(g_.edge_weight(e));
      if (w == 0)
        continue;
      Row& row = own_row(g_.edge_target(e));
      GainCache::row_moved(entries_.data() + row.offset, row.size, from, to, w);
    }
  }
  // Forgets the search's moves.
  void reset() {
    for (NodeID v : moved_)
      local_block_[v] = kInvalidBlockID;
    moved_.clear();
    for (const Row& row : rows_)
      row_of_[row.vertex] = kNoRow;
    rows_.clear();
    entries_.clear();
    const int ncon = p_.ncon();
    for (BlockID b : touched_blocks_)
      std::fill_n(weight_delta_.begin() + static_cast<std::ptrdiff_t>(b) * ncon, ncon, 0);
    touched_blocks_.clear();
  }

private:
  static constexpr std::uint32_t kNoRow = ~std::uint32_t{0};
  struct Row {
    NodeID vertex;
    std::uint32_t size; // as GainCache's: entries in use, or kDense
    std::size_t offset; // into entries_
  };

  // v's private row, copied from the gain cache on first use.
  Row& own_row(NodeID v) {
    if (row_of_[v] == kNoRow) {
      row_of_[v] = static_cast<std::uint32_t>(rows_.size());
      rows_.push_back({v, cache_.row_size(v), entries_.size()});
      cache_.append_row(v, entries_);
    }
    return rows_[row_of_[v]];
  }

  const PartitionedGraph& p_;
  const CsrGraph& g_;
  const GainCache& cache_;
  const BlockLimits& limits_;
  std::vector<BlockID> local_block_; // kInvalidBlockID: not moved by this search
  std::vector<NodeID> moved_;
  std::vector<std::uint32_t> row_of_; // index into rows_, or kNoRow
  std::vector<Row> rows_;
  std::vector<GainCache::Entry> entries_;
  std::vector<Weight> weight_delta_; // k * ncon
  std::vector<BlockID> touched_blocks_;
};

// One thread's search and its view (the search refers to the view, so both stay in place).
struct Worker {
  Worker(const PartitionedGraph& p, const GainCache& cache, const BlockLimits& limits,
         const RefinementContext& ctx)
      : view(p, cache, limits), search(view, p.graph(), ctx) {}
  LocalView view;
  FmSearch<LocalView> search;
};

// Scratch space of apply_search.
struct Applier {
  std::vector<FmMove> applied;
  std::vector<Weight> bound; // k * ncon: max(limit, weight before the search)
};

// Applies the best prefix of one search to the partition and the gain cache, in order: moves
// of vertices locked since (moved by an earlier search of the pass) are skipped, the others'
// gains recomputed from the current cache. A move may overload its target for a while (a later
// move of the same search may make room again), but the search is rolled back to the best
// prefix of what it really gained among those that leave no block above max(its limit, its
// weight before). Locks the vertices it keeps moved (the others may be moved by later searches
// of the pass). With balance_ties, of two prefixes with the same gain the one with the more even
// block weights (constraint 0) is the better, as in the search. Returns the gain kept (>= 0).
Weight apply_search(PartitionedGraph& p, GainCache& cache, const BlockLimits& limits,
                    std::span<const FmMove> prefix, std::vector<std::uint8_t>& locked, Applier& a,
                    bool balance_ties) {
  const CsrGraph& g = p.graph();
  const int ncon = p.ncon();
  a.applied.clear();
  a.bound.assign(p.block_weights().begin(), p.block_weights().end());
  for (std::size_t i = 0; i < a.bound.size(); ++i)
    a.bound[i] = std::max(a.bound[i], limits.max_weight[i]);
  Weight sum = 0, best = 0;
  Weight square_sum = 0, best_square_sum = 0; // change of the sum of squared block weights
  std::size_t best_len = 0;
  int over = 0; // (block, constraint) pairs above their bound
  for (const FmMove& m : prefix) {
    if (locked[m.u] || p.is_fixed(m.u))
      continue;
    const BlockID from = p.block(m.u);
    sum += cache.conn(m.u, m.to) - cache.conn(m.u, from);
    if (balance_ties) {
      const Weight w = g.vertex_weight(m.u, 0);
      square_sum += 2 * w * (p.block_weight(m.to) - p.block_weight(from) + w);
    }
    for (int c = 0; c < ncon; ++c) {
      const Weight w = g.vertex_weight(m.u, c);
      const std::size_t f = static_cast<std::size_t>(from) * ncon + c;
      const std::size_t t = static_cast<std::size_t>(m.to) * ncon + c;
      over -= p.block_weights()[f] > a.bound[f] && p.block_weights()[f] - w <= a.bound[f];
      over += p.block_weights()[t] <= a.bound[t] && p.block_weights()[t] + w > a.bound[t];
    }
    p.move(m.u, m.to);
    cache.moved(g, m.u, from, m.to);
    a.applied.push_back({m.u, from, m.to});
    if (over == 0 &&
        (sum > best || (balance_ties && sum == best && square_sum < best_square_sum))) {
      best_square_sum = square_sum;
      best = sum;
      best_len = a.applied.size();
    }
  }
  for (std::size_t j = a.applied.size(); j > best_len; --j) {
    const FmMove& m = a.applied[j - 1];
    p.move(m.u, m.from);
    cache.moved(g, m.u, m.to, m.from);
  }
  // As in sequential FM, only the kept moves lock their vertices; those rolled back stay free.
  for (std::size_t j = 0; j < best_len; ++j)
    locked[a.applied[j].u] = 1;
  return best;
}

} // namespace

std::vector<NodeID> fm_pass_seeds(const PartitionedGraph& p, std::uint64_t seed, int pass,
                                  const GainCache* cache, const std::vector<NodeID>* superset) {
  std::vector<NodeID> boundary;
  if (cache) {
    boundary = cache->boundary_list(p.graph(), p.blocks(), superset);
  } else {
    const CsrGraph& g = p.graph();
    auto on_boundary = [&](NodeID u) {
      const BlockID own = p.block(u);
      for (NodeID v : g.neighbors(u))
        if (p.block(v) != own)
          return true;
      return false;
    };
    boundary = GainCache::scan_boundary(g.num_nodes(), on_boundary, superset);
  }
  Rng rng(derive_seed(seed, 4, static_cast<std::uint64_t>(pass)));
  std::shuffle(boundary.begin(), boundary.end(), rng);
  return boundary;
}

Weight parallel_fm_refine(PartitionedGraph& p, const BlockLimits& limits,
                          const RefinementContext& ctx, std::uint64_t seed) {
  GainCache cache(p.graph(), p.blocks(), p.k());
  return parallel_fm_refine(p, limits, ctx, seed, cache);
}

Weight parallel_fm_refine(PartitionedGraph& p, const BlockLimits& limits,
                          const RefinementContext& ctx, std::uint64_t seed, GainCache& cache,
                          std::vector<NodeID> first_seeds) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers;
  std::vector<std::uint8_t> locked(n, 0);
  const auto seeds_per_search = static_cast<std::size_t>(std::max(1, ctx.fm_seeds));
  // Two searches per thread at least, so that the threads stay busy on many cores.
  const auto max_batch = static_cast<std::size_t>(
      std::max({1, ctx.fm_batch_searches, 2 * tbb::this_task_arena::max_concurrency()}));
  std::vector<NodeID> seeds;
  std::vector<std::size_t> seeds_begin; // search s has seeds [seeds_begin[s], seeds_begin[s+1])
  std::vector<std::vector<FmMove>> prefixes(max_batch); // of the batch's searches
  Applier applier;
  Weight total = 0;
  for (int pass = 0; pass < ctx.fm_passes; ++pass) {
    const std::vector<NodeID> boundary = pass == 0 && !first_seeds.empty()
                                             ? std::move(first_seeds)
                                             : fm_pass_seeds(p, seed, pass, &cache);
    std::fill(locked.begin(), locked.end(), 0);
    Weight pass_gain = 0;
    const std::size_t batch_size =
        fm_batch_size(boundary.size(), seeds_per_search, ctx.fm_min_batches, max_batch);
    for (std::size_t next = 0; next < boundary.size();) {
      const std::size_t searches =
          next_fm_batch(boundary, next, locked, seeds_per_search, batch_size, seeds, seeds_begin);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, searches, 1), [&](const auto& r) {
        std::unique_ptr<Worker>& w = workers.local();
        if (!w)
          w = std::make_unique<Worker>(p, cache, limits, ctx);
        for (std::size_t s = r.begin(); s != r.end(); ++s) {
          const std::span<const NodeID> own(seeds.data() + seeds_begin[s],
                                            seeds_begin[s + 1] - seeds_begin[s]);
          w->search.run(own, locked);
          const auto& moves = w->search.moves();
          prefixes[s].assign(moves.begin(),
                             moves.begin() + static_cast<std::ptrdiff_t>(w->search.best_len()));
          w->view.reset();
        }
      });
      for (std::size_t s = 0; s < searches; ++s)
        pass_gain +=
            apply_search(p, cache, limits, prefixes[s], locked, applier, ctx.fm_balance_ties);
    }
    total += pass_gain;
    if (pass_gain == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
