#include "distributed/replicate.h"

#include <utility>

namespace gnnpart::distributed {

GatherLayout all_gather_layout(const Comm& comm, std::uint64_t count) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(comm.size));
  MPI_Allgather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm.comm);
  GatherLayout layout;
  layout.counts.resize(counts.size());
  layout.displs.resize(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (layout.total + counts[r] > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      throw Unsupported("a level is too large to replicate (more than 2^31 - 1 items)");
    if (r == static_cast<std::size_t>(comm.rank))
      layout.mine = layout.total;
    layout.counts[r] = static_cast<int>(counts[r]);
    layout.displs[r] = static_cast<int>(layout.total);
    layout.total += counts[r];
  }
  return layout;
}

void all_gather_in_place(const Comm& comm, const GatherLayout& layout, void* all,
                         std::size_t bytes) {
  MPI_Datatype item;
  MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &item);
  MPI_Type_commit(&item);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, layout.counts.data(),
                 layout.displs.data(), item, comm.comm);
  MPI_Type_free(&item);
}

CsrGraph replicate(const Comm& comm, const DistGraph& graph) {
  const GatherLayout vertices = all_gather_layout(comm, graph.n_local);
  std::vector<EdgeID> offsets(vertices.total + 1, 0);
  std::vector<Weight> vertex_weights(vertices.total);
  for (NodeID u = 0; u < graph.n_local; ++u) {
    offsets[vertices.mine + u + 1] = graph.last_edge(u) - graph.first_edge(u);
    vertex_weights[vertices.mine + u] = graph.vertex_weight(u);
  }
  all_gather_in_place(comm, vertices, offsets.data() + 1, sizeof(EdgeID));
  all_gather_in_place(comm, vertices, vertex_weights.data(), sizeof(Weight));
  for (std::size_t u = 1; u < offsets.size(); ++u)
    offsets[u] += offsets[u - 1];

  const GatherLayout entries = all_gather_layout(comm, graph.local_entries());
  std::vector<NodeID> adjacency(entries.total);
  std::vector<Weight> edge_weights(entries.total);
  for (EdgeID e = 0; e < graph.local_entries(); ++e) {
    adjacency[entries.mine + e] = graph.global_id(graph.adjacency[e]);
    edge_weights[entries.mine + e] = graph.edge_weight(e);
  }
  all_gather_in_place(comm, entries, adjacency.data(), sizeof(NodeID));
  all_gather_in_place(comm, entries, edge_weights.data(), sizeof(Weight));
  return CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights), 1,
                  std::move(vertex_weights));
}

int best_rank(const Comm& comm, bool over, std::uint64_t objective) {
  std::vector<std::uint64_t> scores(2 * static_cast<std::size_t>(comm.size));
  const std::uint64_t mine[2] = {over ? 1u : 0u, objective};
  MPI_Allgather(mine, 2, MPI_UINT64_T, scores.data(), 2, MPI_UINT64_T, comm.comm);
  const auto score = [&](int q) {
    return std::pair(scores[2 * static_cast<std::size_t>(q)],
                     scores[2 * static_cast<std::size_t>(q) + 1]);
  };
  int winner = 0;
  for (int r = 1; r < comm.size; ++r)
    if (score(r) < score(winner))
      winner = r;
  return winner;
}

} // namespace gnnpart::distributed
