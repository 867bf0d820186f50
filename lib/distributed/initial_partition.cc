#include "distributed/initial_partition.h"

#include <limits>

#include "core/errors.h"
#include "core/graph.h"
#include "core/metrics.h"
#include "core/partition.h"
#include "core/random.h"
#include "partition/partitioner.h"

namespace gnnpart::distributed {

namespace {

// Every rank's part concatenated (rank order) on every rank.
template <typename T>
std::vector<T> all_gather(const Comm& comm, const std::vector<T>& mine) {
  const std::uint64_t bytes = mine.size() * sizeof(T);
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw Unsupported("the coarsest graph is too large to replicate (> 2 GiB per rank part)");
  const int count = static_cast<int>(bytes);
  std::vector<int> counts(static_cast<std::size_t>(comm.size)), displs(counts.size(), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.comm);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total > std::numeric_limits<int>::max())
      throw Unsupported("the coarsest graph is too large to replicate (> 2 GiB)");
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<T> all(static_cast<std::size_t>(total) / sizeof(T));
  MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                 comm.comm);
  return all;
}

CsrGraph replicate(const Comm& comm, const DistGraph& coarse) {
  std::vector<EdgeID> degrees(coarse.n_local);
  std::vector<NodeID> adjacency(coarse.adjacency.size());
  std::vector<Weight> edge_weights(coarse.adjacency.size()), vertex_weights(coarse.n_local);
  for (NodeID u = 0; u < coarse.n_local; ++u) {
    degrees[u] = coarse.last_edge(u) - coarse.first_edge(u);
    vertex_weights[u] = coarse.vertex_weight(u);
    for (EdgeID e = coarse.first_edge(u); e < coarse.last_edge(u); ++e) {
      adjacency[e] = coarse.global_id(coarse.adjacency[e]);
      edge_weights[e] = coarse.edge_weight(e);
    }
  }
  std::vector<EdgeID> offsets = all_gather(comm, degrees);
  offsets.insert(offsets.begin(), 0);
  for (std::size_t u = 1; u < offsets.size(); ++u)
    offsets[u] += offsets[u - 1];
  return CsrGraph(std::move(offsets), all_gather(comm, adjacency), all_gather(comm, edge_weights),
                  1, all_gather(comm, vertex_weights));
}

} // namespace

std::vector<BlockID> initial_partition(const Comm& comm, const DistGraph& coarse,
                                       const DistContext& ctx) {
  const CsrGraph graph = replicate(comm, coarse);
  PartitionOptions options = ctx.partition;
  options.algorithm = Algorithm::kMultilevel;
  options.epsilon = ctx.initial_epsilon >= 0 ? ctx.initial_epsilon : ctx.partition.epsilon;
  options.seed = derive_seed(ctx.partition.seed, 0x1d, static_cast<std::uint64_t>(comm.rank));
  Partition partition = run_phase(comm, [&] { return partition_graph(graph, options); });
  // Score: (over the bound, objective); the smallest wins, ties to the lowest rank.
  const Weight bound =
      max_block_weight(graph.total_vertex_weight(), ctx.partition.k, options.epsilon);
  const std::vector<Weight> weights = block_weights(graph, partition);
  const bool over = std::any_of(weights.begin(), weights.end(), [&](Weight w) { return w > bound; });
  const GraphMetrics metrics = compute_graph_metrics(graph, partition);
  const std::uint64_t objective = static_cast<std::uint64_t>(
      ctx.partition.objective == Objective::kVolume ? metrics.comm_volume
                                                    : metrics.weighted_edge_cut);
  std::vector<std::uint64_t> scores(2 * static_cast<std::size_t>(comm.size));
  const std::uint64_t mine[2] = {over ? 1u : 0u, objective};
  MPI_Allgather(mine, 2, MPI_UINT64_T, scores.data(), 2, MPI_UINT64_T, comm.comm);
  int winner = 0;
  for (int r = 1; r < comm.size; ++r) {
    const auto score = [&](int q) {
      return std::pair(scores[2 * static_cast<std::size_t>(q)],
                       scores[2 * static_cast<std::size_t>(q) + 1]);
    };
    if (score(r) < score(winner))
      winner = r;
  }
  MPI_Bcast(partition.blocks.data(), static_cast<int>(partition.blocks.size()), MPI_UINT32_T,
            winner, comm.comm);
  const std::uint64_t first = coarse.vtxdist[comm.rank];
  return {partition.blocks.begin() + static_cast<std::ptrdiff_t>(first),
          partition.blocks.begin() + static_cast<std::ptrdiff_t>(first + coarse.n_local)};
}

} // namespace gnnpart::distributed
