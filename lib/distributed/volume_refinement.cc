#include "distributed/volume_refinement.h"

#include <algorithm>

#include "core/block_count_lists.h"
#include "core/partition.h"
#include "core/random.h"
#include "distributed/refinement.h"

namespace gnnpart::distributed {

namespace {


// For every ghost, the owned vertices adjacent to it (ghost i's at [offsets[i], offsets[i+1])).
struct GhostNeighbours {
  std::vector<EdgeID> offsets;
  std::vector<NodeID> owned;
};

GhostNeighbours ghost_neighbours(const DistGraph& graph) {
  GhostNeighbours r{std::vector<EdgeID>(static_cast<std::size_t>(graph.n_ghost()) + 1, 0), {}};
  for (EdgeID e = 0; e < graph.local_entries(); ++e)
    if (graph.adjacency[e] >= graph.n_local)
      ++r.offsets[graph.adjacency[e] - graph.n_local + 1];
  for (NodeID i = 0; i < graph.n_ghost(); ++i)
    r.offsets[i + 1] += r.offsets[i];
  r.owned.resize(r.offsets.back());
  std::vector<EdgeID> fill(r.offsets.begin(), r.offsets.end() - 1);
  for (NodeID u = 0; u < graph.n_local; ++u)
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      if (graph.adjacency[e] >= graph.n_local)
        r.owned[fill[graph.adjacency[e] - graph.n_local]++] = u;
  return r;
}

// Sends the lists of the owned vertices in `changed` to the ranks holding them as ghosts, whose
// copies are replaced. Collective.
void send_lists(const Comm& comm, const DistGraph& graph, const std::vector<NodeID>& changed,
                BlockCountLists& counts) {
  struct Item {
    NodeID global;
    BlockID block;
    NodeID count;
  };
  std::vector<NodeID> last_sent(static_cast<std::size_t>(comm.size));
  const std::vector<Item> arrived = route<Item>(comm, [&](auto&& send) {
    std::fill(last_sent.begin(), last_sent.end(), kInvalidNodeID);
    for (const NodeID u : changed)
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const NodeID v = graph.adjacency[e];
        if (v < graph.n_local)
          continue;
        const int r = graph.owner(v);
        if (last_sent[static_cast<std::size_t>(r)] == u)
          continue;
        last_sent[static_cast<std::size_t>(r)] = u;
        for (const auto* it = counts.begin(u); it != counts.end(u); ++it)
          send(r, Item{graph.first() + u, it->block, it->count});
      }
  });
  NodeID previous = kInvalidNodeID, ghost = 0;
  for (const Item& item : arrived) { // one owner sends a vertex's entries together
    if (item.global != previous) {
      previous = item.global;
      ghost = local_id(graph, item.global);
      counts.clear(ghost);
    }
    counts.add(ghost, item.block, item.count);
  }
}

std::uint64_t global_volume(const Comm& comm, const DistGraph& graph, const BlockCountLists& counts) {
  std::uint64_t volume = 0;
  for (NodeID u = 0; u < graph.n_local; ++u)
    volume += counts.lambda(u) - 1;
  return sum_all(comm, volume);
}

} // namespace

std::uint64_t volume_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx,
                            std::vector<BlockID>& blocks) {
  const BlockID k = ctx.partition.k;
  const Weight bound = max_block_weight(graph.total_weight, k, ctx.partition.epsilon);
  std::vector<NodeID> capacity(graph.n_total());
  for (NodeID u = 0; u < graph.n_local; ++u)
    capacity[u] =
        static_cast<NodeID>(std::min<EdgeID>(graph.last_edge(u) - graph.first_edge(u) + 1, k));
  update_all_ghosts<NodeID>(comm, graph, capacity);
  // Per vertex (owned and ghost), the (block, count) list of its closed neighbourhood.
  BlockCountLists counts(graph.n_total(), [&](NodeID u) { return capacity[u]; });
  capacity = {};
  for (NodeID u = 0; u < graph.n_local; ++u) {
    counts.add(u, blocks[u]);
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      counts.add(u, blocks[graph.adjacency[e]]);
  }
  {
    std::vector<NodeID> all(graph.n_local);
    for (NodeID u = 0; u < graph.n_local; ++u)
      all[u] = u;
    send_lists(comm, graph, all, counts);
  }
  const GhostNeighbours ghost_adj = ghost_neighbours(graph);
  BlockLoads loads = block_loads(comm, graph, blocks, k);
  const std::uint64_t start_volume = global_volume(comm, graph, counts);
  std::uint64_t volume = start_volume;
  BatchBudget budget(k, bound, comm.size, comm.rank);
  std::vector<Weight> present(k, 0);
  std::vector<BlockID> ghost_before(graph.n_ghost()), round_start(graph.n_local);
  std::vector<std::uint8_t> changed_flag(graph.n_local, 0);
  for (int round = 0; round < ctx.refine_rounds; ++round) {
    std::copy(blocks.begin(), blocks.begin() + graph.n_local, round_start.begin());
    std::uint64_t moved_round = 0;
    for (int batch = 0; batch < ctx.batches; ++batch) {
      const NodeID begin = static_cast<NodeID>(std::uint64_t{graph.n_local} * batch / ctx.batches);
      const NodeID end =
          static_cast<NodeID>(std::uint64_t{graph.n_local} * (batch + 1) / ctx.batches);
      budget.start();
      std::vector<NodeID> moved, changed;
      const auto mark = [&](NodeID w) {
        if (w < graph.n_local && !changed_flag[w]) {
          changed_flag[w] = 1;
          changed.push_back(w);
        }
      };
      for (NodeID u = begin; u < end; ++u) {
        if (counts.lambda(u) <= 1)
          continue;
        const BlockID from = blocks[u];
        const Weight w = graph.vertex_weight(u);
        if (!budget.may_leave(loads, from))
          continue;
        Weight loss_from = 0; // closed neighbourhoods that lose `from` entirely
        const auto visit = [&](NodeID x) {
          for (const auto* it = counts.begin(x); it != counts.end(x); ++it) {
            ++present[it->block];
            if (it->block == from && it->count == 1)
              ++loss_from;
          }
        };
        visit(u);
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
          visit(graph.adjacency[e]);
        const Weight closed = static_cast<Weight>(graph.last_edge(u) - graph.first_edge(u)) + 1;
        BlockID best = kInvalidBlockID;
        Weight best_delta = 0; // negative: an improvement
        std::uint64_t best_tie = 0;
        for (const auto* it = counts.begin(u); it != counts.end(u); ++it) {
          const BlockID b = it->block;
          if (b == from || !budget.may_enter(loads, b, w))
            continue;
          const Weight delta = (closed - present[b]) - loss_from;
          const std::uint64_t tie = derive_seed(ctx.partition.seed, 0x701, graph.first() + u, b);
          if (delta < best_delta ||
              (delta == best_delta && best != kInvalidBlockID && tie > best_tie)) {
            best = b;
            best_delta = delta;
            best_tie = tie;
          }
        }
        const auto reset = [&](NodeID x) {
          for (const auto* it = counts.begin(x); it != counts.end(x); ++it)
            present[it->block] = 0;
        };
        reset(u);
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
          reset(graph.adjacency[e]);
        if (best == kInvalidBlockID)
          continue;
        blocks[u] = best;
        counts.remove(u, from);
        counts.add(u, best);
        mark(u);
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
          const NodeID x = graph.adjacency[e];
          counts.remove(x, from);
          counts.add(x, best);
          mark(x);
        }
        budget.move(from, best, w);
        moved.push_back(u);
      }
      budget.finish(comm, loads);
      // Moved ghosts: update the counts of their owned neighbours here.
      std::copy(blocks.begin() + graph.n_local, blocks.end(), ghost_before.begin());
      update_ghosts<BlockID>(comm, graph, moved, blocks);
      for (NodeID g = 0; g < graph.n_ghost(); ++g) {
        const BlockID before = ghost_before[g], now = blocks[graph.n_local + g];
        if (before == now)
          continue;
        for (EdgeID i = ghost_adj.offsets[g]; i < ghost_adj.offsets[g + 1]; ++i) {
          counts.remove(ghost_adj.owned[i], before);
          counts.add(ghost_adj.owned[i], now);
          mark(ghost_adj.owned[i]);
        }
      }
      send_lists(comm, graph, changed, counts);
      for (const NodeID u : changed)
        changed_flag[u] = 0;
      moved_round += moved.size();
    }
    if (sum_all(comm, moved_round) == 0)
      break;
    const std::uint64_t after = global_volume(comm, graph, counts);
    if (after >= volume) { // concurrent moves of several ranks lost: undo the round, stop
      if (after > volume) {
        std::copy(round_start.begin(), round_start.end(), blocks.begin());
        update_all_ghosts<BlockID>(comm, graph, blocks);
      }
      break;
    }
    volume = after;
  }
  return start_volume - volume;
}

} // namespace gnnpart::distributed
