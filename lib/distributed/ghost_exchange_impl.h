#pragma once
// Template bodies of update_ghosts / update_all_ghosts (included by dist_graph.h).
#include <algorithm>
#include <bit>
#include <numeric>

#include "distributed/route_rounds.h"

namespace gnnpart::distributed {

template <typename T>
void update_ghosts(const Comm& comm, const DistGraph& graph, std::span<const NodeID> changed,
                   std::vector<T>& value) {
  struct Update {
    NodeID global;
    T value;
  };
  // comm.round_items / (P (P - 1)) changed vertices per round: each sends at most P - 1
  // updates, so a rank sends at most round_items / P updates per round and receives at most
  // about round_items from all ranks together, as the other routed streams do, however many
  // vertices changed (one exchange of them all held 2 x 24 B per (vertex, ghost rank) pair of
  // Jet's moves; round_items / P vertices per round, up to 2.25 MiB sent and as much received
  // per round at P = 4: both among the finest level's peaks on R-MAT 10^7).
  const std::uint64_t p = static_cast<std::uint64_t>(comm.size);
  const std::size_t per_chunk = std::max<std::size_t>(
      1, static_cast<std::size_t>(comm.round_items / (p * std::max<std::uint64_t>(1, p - 1))));
  const std::uint64_t chunks = (changed.size() + per_chunk - 1) / per_chunk;
  // The ranks of a vertex's ghost copies: from ghost_ranks where set, else from its row, each
  // ghost's owner found by its local id (ghost_rank_ends), not by its global id.
  const std::vector<NodeID> ends = ghost_rank_ends(graph);
  const bool by_mask = !graph.ghost_ranks.empty();
  std::vector<NodeID> last_sent(static_cast<std::size_t>(comm.size));
  RowReader row(graph, true); // the rows of a spilled graph, read ahead
  route_rounds<Update>(
      comm, chunks,
      [&](std::uint64_t c, auto&& send, RoutePass) {
        const std::size_t begin = c * per_chunk;
        const std::size_t end = std::min(changed.size(), begin + per_chunk);
        if (by_mask) {
          for (std::size_t i = begin; i < end; ++i) {
            const NodeID u = changed[i];
            for (unsigned mask = graph.ghost_ranks[u]; mask != 0; mask &= mask - 1)
              send(std::countr_zero(mask), Update{graph.first() + u, value[u]});
          }
          return;
        }
        std::fill(last_sent.begin(), last_sent.end(), kInvalidNodeID);
        for (std::size_t i = begin; i < end; ++i) {
          const NodeID u = changed[i];
          for (const NodeID v : row(u)) {
            if (v < graph.n_local)
              continue;
            const int r =
                static_cast<int>(std::upper_bound(ends.begin(), ends.end(), v) - ends.begin());
            if (last_sent[static_cast<std::size_t>(r)] != u) {
              last_sent[static_cast<std::size_t>(r)] = u;
              send(r, Update{graph.first() + u, value[u]});
            }
          }
        }
      },
      [&](std::span<const Update> arrived) {
        // A sender's updates come in the order of `changed`, mostly increasing: the search
        // goes on from the last ghost found when it can (galloping), else from the start.
        const auto ghosts = std::span<const NodeID>(graph.ghost_global);
        std::size_t at = 0;
        for (const Update& update : arrived) {
          std::size_t low = 0, high = ghosts.size();
          if (at < ghosts.size() && ghosts[at] <= update.global) {
            low = at;
            std::size_t step = 1;
            while (low + step < ghosts.size() && ghosts[low + step] <= update.global) {
              low += step;
              step *= 2;
            }
            high = std::min(ghosts.size(), low + step + 1);
          }
          at = static_cast<std::size_t>(
              std::lower_bound(ghosts.begin() + static_cast<std::ptrdiff_t>(low),
                               ghosts.begin() + static_cast<std::ptrdiff_t>(high), update.global) -
              ghosts.begin());
          value[graph.n_local + static_cast<NodeID>(at)] = update.value;
        }
      });
}

template <typename T>
void update_all_ghosts(const Comm& comm, const DistGraph& graph, std::vector<T>& value) {
  std::vector<NodeID> all(graph.n_local);
  std::iota(all.begin(), all.end(), NodeID{0});
  update_ghosts<T>(comm, graph, all, value);
}

} // namespace gnnpart::distributed
