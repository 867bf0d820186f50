#pragma once
// Template bodies of update_ghosts / update_all_ghosts (included by dist_graph.h).
#include <numeric>

namespace gnnpart::distributed {

template <typename T>
void update_ghosts(const Comm& comm, const DistGraph& graph, std::span<const NodeID> changed,
                   std::vector<T>& value) {
  struct Update {
    NodeID global;
    T value;
  };
  std::vector<NodeID> last_sent(static_cast<std::size_t>(comm.size));
  const std::vector<Update> arrived = route<Update>(comm, [&](auto&& send) {
    std::fill(last_sent.begin(), last_sent.end(), kInvalidNodeID);
    for (const NodeID u : changed) {
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const NodeID v = graph.adjacency[e];
        if (v < graph.n_local)
          continue;
        const int r = graph.owner(v);
        if (last_sent[static_cast<std::size_t>(r)] != u) {
          last_sent[static_cast<std::size_t>(r)] = u;
          send(r, Update{graph.first() + u, value[u]});
        }
      }
    }
  });
  for (const Update& update : arrived) {
    const auto it = std::lower_bound(graph.ghost_global.begin(), graph.ghost_global.end(),
                                     update.global);
    value[graph.n_local + static_cast<NodeID>(it - graph.ghost_global.begin())] = update.value;
  }
}

template <typename T>
void update_all_ghosts(const Comm& comm, const DistGraph& graph, std::vector<T>& value) {
  std::vector<NodeID> all(graph.n_local);
  std::iota(all.begin(), all.end(), NodeID{0});
  update_ghosts<T>(comm, graph, all, value);
}

} // namespace gnnpart::distributed
