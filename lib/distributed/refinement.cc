#include "distributed/refinement.h"

#include <algorithm>
#include <numeric>

#include "core/partition.h"
#include "core/random.h"

namespace gnnpart::distributed {

Weight connections(const DistGraph& graph, const std::vector<BlockID>& blocks, NodeID u,
                   std::span<const NodeID> row, std::vector<Weight>& conn,
                   std::vector<BlockID>& touched) {
  touched.clear();
  const EdgeID first = graph.first_edge(u);
  Weight degree = 0;
  for (std::size_t j = 0; j < row.size(); ++j) {
    const BlockID b = blocks[row[j]];
    const Weight w = graph.edge_weight(first + j);
    if (conn[b] == 0)
      touched.push_back(b);
    conn[b] += w;
    degree += w;
  }
  return degree;
}

BlockLoads block_loads(const Comm& comm, const DistGraph& graph, const std::vector<BlockID>& blocks,
                       BlockID k) {
  BlockLoads loads{std::vector<Weight>(k, 0), std::vector<std::int64_t>(k, 0)};
  for (NodeID u = 0; u < graph.n_local; ++u) {
    loads.weight[blocks[u]] += graph.vertex_weight(u);
    ++loads.size[blocks[u]];
  }
  sum_all_in_place(comm, loads.weight);
  sum_all_in_place(comm, loads.size);
  return loads;
}

BatchBudget::BatchBudget(BlockID k, Weight bound, int ranks, int rank)
    : bound_(bound), ranks_(ranks), rank_(rank), added_(k), delta_weight_(k), taken_(k),
      delta_size_(k) {}

void BatchBudget::start() {
  std::fill(added_.begin(), added_.end(), 0);
  std::fill(taken_.begin(), taken_.end(), 0);
  std::fill(delta_weight_.begin(), delta_weight_.end(), 0);
  std::fill(delta_size_.begin(), delta_size_.end(), 0);
}

void BatchBudget::move(BlockID from, BlockID to, Weight w) {
  added_[to] += w;
  ++taken_[from];
  delta_weight_[to] += w;
  delta_weight_[from] -= w;
  ++delta_size_[to];
  --delta_size_[from];
}

void BatchBudget::finish(const Comm& comm, BlockLoads& loads) {
  sum_all_in_place(comm, delta_weight_);
  sum_all_in_place(comm, delta_size_);
  for (std::size_t b = 0; b < added_.size(); ++b) {
    loads.weight[b] += delta_weight_[b];
    loads.size[b] += delta_size_[b];
  }
}

void refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
            std::vector<BlockID>& blocks) {
  const BlockID k = ctx.partition.k;
  const Weight bound = max_block_weight(graph.total_weight, k, ctx.partition.epsilon);
  BlockLoads loads = block_loads(comm, graph, blocks, k);
  BatchBudget budget(k, bound, comm.size, comm.rank);
  std::vector<Weight> conn(k, 0);
  std::vector<BlockID> touched;
  RowReader row(graph, true); // the batches visit their rows in order
  for (int round = 0; round < ctx.refine_rounds; ++round) {
    std::uint64_t moved_round = 0;
    for (int batch = 0; batch < ctx.batches; ++batch) {
      const NodeID begin = static_cast<NodeID>(std::uint64_t{graph.n_local} * batch / ctx.batches);
      const NodeID end =
          static_cast<NodeID>(std::uint64_t{graph.n_local} * (batch + 1) / ctx.batches);
      budget.start();
      std::vector<NodeID> moved;
      for (NodeID u = begin; u < end; ++u) {
        const BlockID from = blocks[u];
        const Weight w = graph.vertex_weight(u);
        connections(graph, blocks, u, row(u), conn, touched);
        BlockID best = from;
        Weight best_gain = 0;
        std::uint64_t best_tie = 0;
        if (budget.may_leave(loads, from)) {
          for (const BlockID b : touched) {
            if (b == from || !budget.may_enter(loads, b, w))
              continue;
            const Weight gain = conn[b] - conn[from];
            const std::uint64_t tie = derive_seed(ctx.partition.seed, level, u, b);
            if (gain > best_gain || (gain == best_gain && best != from && tie > best_tie)) {
              best = b;
              best_gain = gain;
              best_tie = tie;
            }
          }
        }
        for (const BlockID b : touched)
          conn[b] = 0;
        if (best == from)
          continue;
        blocks[u] = best;
        budget.move(from, best, w);
        moved.push_back(u);
      }
      budget.finish(comm, loads);
      update_ghosts<BlockID>(comm, graph, moved, blocks);
      moved_round += moved.size();
    }
    if (sum_all(comm, moved_round) == 0)
      break;
  }
}

RebalanceResult rebalance(const Comm& comm, const DistGraph& graph, const DistContext& ctx,
                          std::vector<BlockID>& blocks) {
  RebalanceResult result;
  const BlockID k = ctx.partition.k;
  const Weight bound = max_block_weight(graph.total_weight, k, ctx.partition.epsilon);
  std::vector<Weight> conn(k, 0);
  std::vector<BlockID> touched;
  RowReader row(graph, true);
  for (int round = 0; round < ctx.balance_rounds; ++round) {
    BlockLoads loads = block_loads(comm, graph, blocks, k);
    bool any_over = false;
    for (BlockID b = 0; b < k; ++b)
      any_over = any_over || loads.weight[b] > bound;
    if (!any_over) {
      result.balanced = true;
      return result;
    }
    // This rank's share of each block's excess, in proportion to its weight in the block.
    std::vector<Weight> local_weight(k, 0);
    for (NodeID u = 0; u < graph.n_local; ++u)
      local_weight[blocks[u]] += graph.vertex_weight(u);
    std::vector<Weight> quota(k, 0);
    for (BlockID b = 0; b < k; ++b)
      if (loads.weight[b] > bound && local_weight[b] > 0)
        quota[b] =
            static_cast<Weight>((static_cast<__int128>(loads.weight[b] - bound) * local_weight[b] +
                                 loads.weight[b] - 1) /
                                loads.weight[b]);
    std::vector<Weight> share(k);
    for (BlockID b = 0; b < k; ++b)
      share[b] = room_share(bound - loads.weight[b], comm.size, comm.rank, b + round);
    const BlockID lightest = static_cast<BlockID>(
        std::min_element(loads.weight.begin(), loads.weight.end()) - loads.weight.begin());
    // Candidates: (loss, u, target), the smallest loss first, ties by u (the global id's
    // order: first() + u); 16 B each (with a copy of the global id they took 24 B, and the
    // balancer inside Jet's rounds was one of the finest level's peaks on R-MAT 10^7, P = 4).
    struct Candidate {
      Weight loss;
      NodeID u;
      BlockID to;
    };
    std::vector<Candidate> candidates;
    for (NodeID u = 0; u < graph.n_local; ++u) {
      const BlockID from = blocks[u];
      if (quota[from] == 0)
        continue;
      connections(graph, blocks, u, row(u), conn, touched);
      // Targets: blocks where this rank's share of the room takes u (room_share), the least
      // loss first, else the lightest block.
      const Weight w = graph.vertex_weight(u);
      const auto fits = [&](BlockID b) { return share[b] >= w; };
      BlockID to = fits(lightest) ? lightest : from;
      Weight loss = to == from ? 0 : conn[from] - conn[lightest];
      for (const BlockID b : touched)
        if (b != from && fits(b) && (to == from || conn[from] - conn[b] < loss)) {
          to = b;
          loss = conn[from] - conn[b];
        }
      for (const BlockID b : touched)
        conn[b] = 0;
      if (to != from)
        candidates.push_back({loss, u, to});
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return a.loss != b.loss ? a.loss < b.loss : a.u < b.u;
    });
    std::vector<Weight> moved_out(k, 0), added(k, 0);
    std::vector<NodeID> moved;
    for (const Candidate& c : candidates) {
      const BlockID from = blocks[c.u];
      const Weight w = graph.vertex_weight(c.u);
      if (moved_out[from] >= quota[from] || added[c.to] + w > share[c.to])
        continue;
      blocks[c.u] = c.to;
      moved_out[from] += w;
      added[c.to] += w;
      moved.push_back(c.u);
    }
    update_ghosts<BlockID>(comm, graph, moved, blocks);
    const std::uint64_t moved_round = sum_all(comm, static_cast<std::uint64_t>(moved.size()));
    if (moved_round == 0)
      break;
    result.moves += moved_round;
  }
  const BlockLoads loads = block_loads(comm, graph, blocks, k);
  result.balanced =
      std::all_of(loads.weight.begin(), loads.weight.end(), [&](Weight w) { return w <= bound; });
  return result;
}

} // namespace gnnpart::distributed
