#include <algorithm>
#include <limits>
#include <utility>

#include <tbb/task_arena.h>

#include "core/indexed_heap.h"
#include "core/random.h"
#include "hypergraph/fm_vertex_states.h"
#include "hypergraph/gain_computer.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/parallel_fm_refiner.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

struct Move {
  NodeID u;
  BlockID from;
  std::uint32_t nets_end; // the move's re-rated nets end here in the search's list
};

// True when a pin-count change on a net can change the gain of its other pins.
bool matters(Objective objective, std::uint32_t pf, std::uint32_t pt, std::uint32_t size) {
  if (objective != Objective::kCut && (pf <= 1 || pt <= 2))
    return true;
  if (objective != Objective::kKm1 && (pf + 2 >= size || pt + 2 >= size))
    return true;
  return false;
}

// Gains recomputed from pin counts (any objective).
class RecomputingOracle {
public:
  RecomputingOracle(PartitionedHypergraph& phg, Objective objective)
      : phg_(phg), objective_(objective), gc_(phg.k()) {}
  MoveCandidate best_move(NodeID u, std::span<const Weight> max_weights) {
    return gc_.best_move(phg_, u, objective_, max_weights);
  }
  void add_work(std::uint64_t) {}
  Weight gain_bound(NodeID) const { return std::numeric_limits<Weight>::max(); }
  MoveCandidate rerate(NodeID u, BlockID, BlockID, BlockID, std::span<const Weight> max_weights) {
    return best_move(u, max_weights);
  }
  Weight move(NodeID u, BlockID to, NodeID max_touch, std::vector<NetID>& touched) {
    const Hypergraph& hg = phg_.hypergraph();
    return phg_.move(u, to, objective_, [&](NetID e, std::uint32_t pf, std::uint32_t pt) {
      if (hg.net_size(e) <= max_touch && matters(objective_, pf, pt, hg.net_size(e)))
        touched.push_back(e);
    });
  }

private:
  PartitionedHypergraph& phg_;
  Objective objective_;
  GainComputer gc_;
};

class CachedKm1Oracle {
public:
  CachedKm1Oracle(PartitionedHypergraph& phg, Km1GainCache& cache) : phg_(phg), cache_(cache) {}
  void add_work(std::uint64_t pins) { cache_.add_work(pins); }
  MoveCandidate best_move(NodeID u, std::span<const Weight> max_weights) {
    return cache_.best_move(phg_, u, max_weights);
  }
  // At least the gain of every move of u (cheaper than best_move).
  Weight gain_bound(NodeID u) const { return cache_.gain_bound(u, phg_.block(u)); }
  // u's best move after a move from -> to changed some of its nets, given that `target` was its
  // best before. Only conn(u, from), conn(u, to), benefit(u) and the weights of from and to
  // changed, so unless `target` was `from` (its connection may have dropped), the best is one of
  // the three blocks. A full scan when none of them is feasible.
  MoveCandidate rerate(NodeID u, BlockID target, BlockID from, BlockID to,
                       std::span<const Weight> max_weights) {
    if (target != from) {
      const BlockID candidates[] = {target, to, from};
      if (const MoveCandidate mc = cache_.best_of(phg_, u, candidates, max_weights);
          mc.to != kInvalidBlockID)
        return mc;
    }
    return best_move(u, max_weights);
  }
  Weight move(NodeID u, BlockID to, NodeID max_touch, std::vector<NetID>& touched) {
    return cache_.move(phg_, u, to, max_touch, touched);
  }

private:
  PartitionedHypergraph& phg_;
  Km1GainCache& cache_;
};

template <typename Oracle>
Weight fm_rounds(PartitionedHypergraph& phg, Oracle& oracle, const HgContext& ctx,
                 std::span<const Weight> max_weights, std::uint64_t seed) {
  const NodeID n = phg.num_nodes();
  const Hypergraph& hg = phg.hypergraph();
  const RefinementContext& rc = ctx.refinement;
  IndexedMaxHeap heap(n);
  FmVertexStates state(n, phg.k()); // targets: of vertices in the heap, their best block when rated
  std::vector<NetID> touched;
  std::vector<Move> moves;
  // The re-rated nets of a search's moves, each once, in the order of the move that first
  // re-rated it; `listed` marks them until the search ends. Only the next round's seeds read the
  // list, as sets of pins, so a net listed again by a later move adds nothing. With repeats the
  // list outgrew the level's nets (uk-2007-05-100k k = 128: 1.4 MB on a coarse level of 81,584
  // nets, FM's peak there 66.8 -> 65.5 MiB without them).
  std::vector<NetID> search_nets;
  std::vector<bool> listed(hg.num_nets(), false);
  std::vector<NodeID> seeds;
  // Room for every vertex, reserved but not written: a large block's pages become resident
  // only when written, whereas growing by doubling copies the list and can leave up to half
  // of the last array written by nothing (FM's peak on the input level, issue #20).
  seeds.reserve(n);
  Weight total = 0;
  Weight current_objective = phg.objective(ctx.objective);

  bool all_seeds = true; // every boundary vertex a seed candidate (else the active ones)
  for (int round = 0; round < rc.fm_rounds; ++round) {
    state.begin_round();
    seeds.clear();
    for (NodeID u = 0; u < n; ++u) // the cheap test first: is_boundary reads u's nets
      if ((all_seeds || state.seed_candidate(u)) && phg.is_boundary(u))
        seeds.push_back(u);
    Rng rng(derive_seed(seed, 0xF3, round));
    std::shuffle(seeds.begin(), seeds.end(), rng);
    Weight round_gain = 0;
    std::size_t next_seed = 0;
    while (next_seed < seeds.size()) {
      heap.clear();
      for (int s = 0; s < rc.fm_seeds_per_search && next_seed < seeds.size(); ++next_seed) {
        const NodeID u = seeds[next_seed];
        if (state.moved(u) || heap.contains(u) ||
            oracle.gain_bound(u) < rc.fm_min_seed_gain) // no move of u reaches the seed gain
          continue;
        const MoveCandidate mc = oracle.best_move(u, max_weights);
        if (mc.to == kInvalidBlockID || mc.gain < rc.fm_min_seed_gain)
          continue;
        heap.push(u, mc.gain);
        state.set_target(u, mc.to);
        ++s;
      }
      if (heap.empty())
        continue;
      moves.clear();
      for (NetID e : search_nets)
        listed[e] = false;
      search_nets.clear();
      Weight current = 0, best = 0;
      std::size_t best_length = 0;
      while (!heap.empty()) {
        const NodeID u = heap.pop();
        const MoveCandidate mc = oracle.best_move(u, max_weights);
        if (mc.to == kInvalidBlockID)
          continue;
        if (!heap.empty() && mc.gain < heap.top_key()) {
          heap.push(u, mc.gain);
          state.set_target(u, mc.to);
          continue;
        }
        const BlockID from = phg.block(u);
        touched.clear();
        current += oracle.move(u, mc.to, rc.max_update_net_size, touched);
        state.mark_moved(u);
        for (NetID e : touched) {
          if (!listed[e]) {
            listed[e] = true;
            search_nets.push_back(e);
          }
        }
        moves.push_back({u, from, static_cast<std::uint32_t>(search_nets.size())});
        if (current > best) {
          best = current;
          best_length = moves.size();
        } else if (moves.size() - best_length > rc.fm_max_moves_without_improvement) {
          break;
        }
        state.begin_move();
        for (NetID e : touched) {
          oracle.add_work(hg.net_size(e));
          for (NodeID v : hg.pins(e)) {
            if (state.moved(v) || !state.mark_rated(v))
              continue;
            const MoveCandidate mv = oracle.rerate(v, heap.contains(v) ? state.target(v) : mc.to,
                                                   from, mc.to, max_weights);
            if (mv.to == kInvalidBlockID) {
              if (heap.contains(v))
                heap.remove(v);
            } else {
              heap.push_or_update(v, mv.gain);
              state.set_target(v, mv.to);
            }
          }
        }
      }
      for (std::size_t i = moves.size(); i > best_length; --i) {
        touched.clear();
        oracle.move(moves[i - 1].u, moves[i - 1].from, 0, touched);
      }
      if (rc.fm_active_seeds && best_length > 0) {
        // The next round's seeds (unless it takes every boundary vertex): the kept moves'
        // vertices and the pins re-rated after them, whose gains those moves changed (the
        // pins of nets above max_update_net_size aside, as in the search).
        const Move& last = moves[best_length - 1];
        for (std::size_t i = 0; i < best_length; ++i)
          state.mark_next_round_seed(moves[i].u);
        for (std::size_t i = 0; i < last.nets_end; ++i)
          for (NodeID v : hg.pins(search_nets[i]))
            state.mark_next_round_seed(v);
      }
      round_gain += best;
    }
    total += round_gain;
    current_objective -= round_gain;
    // Rounds from the active vertices while they pay; when one does not, a round from every
    // boundary vertex decides whether to go on (FM stops where a full round does not pay), unless
    // the finer level's first round decides (fm_deciding_round).
    const bool next = fm_next_round(round_gain, current_objective, rc);
    if (!next && (all_seeds || !rc.fm_deciding_round))
      break;
    all_seeds = !rc.fm_active_seeds || !next;
  }
  return total;
}

} // namespace

Weight fm_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                 std::span<const Weight> max_weights, std::uint64_t seed, Km1GainCache& cache) {
  if (phg.k() < 2 || phg.num_nodes() == 0)
    return 0;
  // With two blocks, km1 = cut and soed = 2 cut: the km1 cache serves every objective.
  if (ctx.objective == Objective::kKm1 || phg.k() == 2) {
    // Not rebuilt where it is still phg's (after FM or the km1 rebalancer on this level).
    if (cache.built_for(phg) || cache.rebuild(phg)) {
      if (tbb::this_task_arena::max_concurrency() >=
          std::max(2, ctx.refinement.fm_parallel_min_threads))
        return parallel_fm_refine(phg, ctx, max_weights, seed, cache);
      CachedKm1Oracle oracle(phg, cache);
      return fm_rounds(phg, oracle, ctx, max_weights, seed);
    }
  }
  RecomputingOracle oracle(phg, ctx.objective);
  return fm_rounds(phg, oracle, ctx, max_weights, seed);
}

} // namespace gnnpart::hg
