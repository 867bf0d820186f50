#include "distributed/jet_refinement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <tuple>

#include <fmt/format.h>

#include "core/partition.h"
#include "core/random.h"
#include "distributed/fetch.h"
#include "distributed/refinement.h"

namespace gnnpart::distributed {

namespace {

// A candidate move as its owner announces it (to == kInvalidBlockID: none). Gain: 32-bit when
// every vertex's weighted degree (a bound on |gain|) fits, so that the per-vertex array (owned
// and ghost) and its ghost updates take 8 B instead of 16; 64-bit otherwise.
template <typename Gain> struct JetMove {
  BlockID to = kInvalidBlockID;
  Gain gain = 0;
};

// What the pass minimises: the weight over the bound summed over the blocks, then the cut
// (every cut edge counted twice).
struct Score {
  Weight overload = 0;
  Weight cut = 0;
  bool operator<(const Score& o) const {
    return std::tie(overload, cut) < std::tie(o.overload, o.cut);
  }
};

// The score from this rank's block weights (values[0..k)) and cut weight (values[k]), summed
// over the ranks. Collective.
Score global_score(const Comm& comm, std::vector<std::int64_t>& values, BlockID k, Weight bound) {
  sum_all_in_place(comm, values);
  Score s;
  for (BlockID b = 0; b < k; ++b)
    s.overload += std::max<Weight>(0, values[b] - bound);
  s.cut = values[k];
  return s;
}

template <typename Gain>
JetResult jet_pass(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                   std::vector<BlockID>& blocks) {
  using Move = JetMove<Gain>;
  const BlockID k = ctx.partition.k;
  JetResult result;
  const Weight bound = max_block_weight(graph.total_weight, k, ctx.partition.epsilon);
  const double c = level == 0 ? ctx.jet_negative_fine : ctx.jet_negative_coarse;
  const Weight ranks = comm.size;
  std::vector<Move> move(graph.n_total());
  std::vector<std::uint8_t> locked(graph.n_local, 0);
  std::vector<BlockID> best(blocks.begin(), blocks.begin() + graph.n_local);
  Score best_score;
  Weight start_cut = 0;
  bool at_best = true; // blocks hold the best partition
  std::vector<Weight> conn(k, 0);
  std::vector<BlockID> touched;
  std::vector<NodeID> announced; // owned vertices whose ghost copies hold a candidate
  std::vector<std::int64_t> taken(k);
  std::vector<std::int64_t> values(static_cast<std::size_t>(k) + 1);
  RowReader row(graph, true); // candidates and movers are visited in increasing order
  int idle = 0;
  for (int round = 0;; ++round) {
    // 1. Candidates, and the score of the partition the last iteration left (its block weights
    // and cut), in one pass over the rows: the score had a pass of its own, one of the three
    // row passes of an iteration (candidates, afterburner, score) once the ghost updates took
    // the ranks from DistGraph::ghost_ranks. After the last iteration only the score is needed.
    const bool last = round == ctx.jet_rounds;
    std::fill(values.begin(), values.end(), 0);
    std::vector<NodeID> candidates;
    for (NodeID u = 0; u < graph.n_local; ++u) {
      move[u] = Move{};
      const BlockID from = blocks[u];
      values[from] += graph.vertex_weight(u);
      if (last || locked[u]) {
        const std::span<const NodeID> neighbours = row(u);
        for (std::size_t j = 0; j < neighbours.size(); ++j)
          if (blocks[neighbours[j]] != from)
            values[k] += graph.edge_weight(graph.first_edge(u) + j);
        continue;
      }
      values[k] += connections(graph, blocks, u, row(u), conn, touched) - conn[from];
      BlockID to = kInvalidBlockID;
      std::uint64_t to_tie = 0;
      for (const BlockID b : touched) {
        if (b == from)
          continue;
        const std::uint64_t tie = derive_seed(ctx.partition.seed, 0x7e7, level,
                                              b ^ (std::uint64_t{graph.first() + u} << 32));
        if (to == kInvalidBlockID || conn[b] > conn[to] || (conn[b] == conn[to] && tie > to_tie)) {
          to = b;
          to_tie = tie;
        }
      }
      if (to != kInvalidBlockID) {
        const Weight gain = conn[to] - conn[from];
        const Weight allowed = static_cast<Weight>(std::floor(c * static_cast<double>(conn[from])));
        if (gain >= 0 || -gain < allowed) {
          move[u] = Move{to, static_cast<Gain>(gain)};
          candidates.push_back(u);
        }
      }
      for (const BlockID b : touched)
        conn[b] = 0;
    }
    // 5. (of the last iteration) Keep the best.
    const Score current = global_score(comm, values, k, bound);
    if (ctx.log_levels && comm.rank == 0)
      fmt::print(stderr, "  jet level {} round {}: overload {} cut {}\n", level, round,
                 current.overload, current.cut / 2);
    if (round == 0) {
      best_score = current;
      start_cut = current.cut;
    } else {
      at_best = current < best_score;
      if (at_best) {
        idle = current.overload == best_score.overload &&
                       static_cast<double>(best_score.cut - current.cut) <
                           ctx.jet_min_improvement * static_cast<double>(best_score.cut)
                   ? idle + 1
                   : 0;
        best_score = current;
        std::copy(blocks.begin(), blocks.begin() + graph.n_local, best.begin());
      } else {
        ++idle;
      }
    }
    if (last || idle >= ctx.jet_patience)
      break;
    // 2. Announce them, and withdraw the last iteration's that are not candidates again, to
    // the ghost copies (both lists are sorted; the withdrawn ones are kept in place, so no
    // list of both is made).
    std::size_t withdrawn = 0;
    for (std::size_t i = 0, j = 0; i < announced.size(); ++i) {
      while (j < candidates.size() && candidates[j] < announced[i])
        ++j;
      if (j == candidates.size() || candidates[j] != announced[i])
        announced[withdrawn++] = announced[i];
    }
    announced.resize(withdrawn);
    update_ghosts<Move>(comm, graph, announced, move);
    update_ghosts<Move>(comm, graph, candidates, move);
    // 3. Afterburner; a rank takes at most (|b| - 1) / P vertices out of a block.
    const BlockLoads loads = block_loads(comm, graph, blocks, k);
    std::fill(taken.begin(), taken.end(), 0);
    std::vector<NodeID> moved;
    for (const NodeID u : candidates) {
      const BlockID from = blocks[u], to = move[u].to;
      const NodeID gu = graph.first() + u;
      Weight gain = 0;
      const std::span<const NodeID> neighbours = row(u);
      for (std::size_t j = 0; j < neighbours.size(); ++j) {
        const NodeID v = neighbours[j];
        BlockID bv = blocks[v];
        const Move& mv = move[v];
        if (mv.to != kInvalidBlockID &&
            (mv.gain > move[u].gain || (mv.gain == move[u].gain && graph.global_id(v) < gu)))
          bv = mv.to;
        if (bv == to)
          gain += graph.edge_weight(graph.first_edge(u) + j);
        else if (bv == from)
          gain -= graph.edge_weight(graph.first_edge(u) + j);
      }
      if (gain < 0 || taken[from] + 1 > (loads.size[from] - 1) / ranks)
        continue;
      ++taken[from];
      moved.push_back(u);
    }
    std::fill(locked.begin(), locked.end(), 0);
    for (const NodeID u : moved) {
      blocks[u] = move[u].to;
      locked[u] = 1;
    }
    update_ghosts<BlockID>(comm, graph, moved, blocks);
    if (ctx.log_levels) {
      const std::uint64_t all_candidates = sum_all(comm, std::uint64_t{candidates.size()});
      const std::uint64_t all_moved = sum_all(comm, std::uint64_t{moved.size()});
      if (comm.rank == 0)
        fmt::print(stderr, "  jet level {} round {}: {} candidates, {} moved\n", level, round,
                   all_candidates, all_moved);
    }
    announced = std::move(candidates);
    // 4. Balance (5. in the next pass).
    const std::uint64_t balanced = rebalance(comm, graph, ctx, blocks).moves;
    result.balance_moves += balanced;
    if (ctx.log_levels && comm.rank == 0)
      fmt::print(stderr, "  jet level {} round {}: {} balance moves\n", level, round, balanced);
  }
  if (!at_best) {
    std::copy(best.begin(), best.end(), blocks.begin());
    update_all_ghosts<BlockID>(comm, graph, blocks);
  }
  result.cut_gain = (start_cut - best_score.cut) / 2;
  return result;
}

// The largest weighted degree of any vertex, over all ranks.
std::uint64_t max_weighted_degree(const Comm& comm, const DistGraph& graph) {
  std::uint64_t largest = 0;
  for (NodeID u = 0; u < graph.n_local; ++u) {
    std::uint64_t degree = 0;
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      degree += static_cast<std::uint64_t>(graph.edge_weight(e));
    largest = std::max(largest, degree);
  }
  return max_all(comm, largest);
}

} // namespace

JetResult jet_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                     std::vector<BlockID>& blocks) {
  if (ctx.partition.k < 2 || ctx.jet_rounds <= 0 ||
      graph.global_n < std::uint64_t{ctx.jet_min_block_vertices} * ctx.partition.k)
    return {};
  return max_weighted_degree(comm, graph) <=
                 static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())
             ? jet_pass<std::int32_t>(comm, graph, ctx, level, blocks)
             : jet_pass<Weight>(comm, graph, ctx, level, blocks);
}

} // namespace gnnpart::distributed
