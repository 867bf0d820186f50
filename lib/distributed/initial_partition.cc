#include "distributed/initial_partition.h"

#include <algorithm>

#include "core/errors.h"
#include "core/graph.h"
#include "core/metrics.h"
#include "core/partition.h"
#include "core/random.h"
#include "distributed/replicate.h"
#include "partition/partitioner.h"

namespace gnnpart::distributed {

std::vector<BlockID> initial_partition(const Comm& comm, const CsrGraph& graph, std::uint64_t first,
                                       NodeID n_local, const DistContext& ctx) {
  PartitionOptions options = ctx.partition;
  options.algorithm = Algorithm::kMultilevel;
  options.epsilon = ctx.initial_epsilon >= 0 ? ctx.initial_epsilon : ctx.partition.epsilon;
  options.seed = derive_seed(ctx.partition.seed, 0x1d, static_cast<std::uint64_t>(comm.rank));
  Partition partition = run_phase(comm, [&] { return partition_graph(graph, options); });
  // Score: (over the bound, objective); the smallest wins, ties to the lowest rank.
  const Weight bound =
      max_block_weight(graph.total_vertex_weight(), ctx.partition.k, options.epsilon);
  const std::vector<Weight> weights = block_weights(graph, partition);
  const bool over =
      std::any_of(weights.begin(), weights.end(), [&](Weight w) { return w > bound; });
  const GraphMetrics metrics = compute_graph_metrics(graph, partition);
  const std::uint64_t objective = static_cast<std::uint64_t>(
      ctx.partition.objective == Objective::kVolume ? metrics.comm_volume
                                                    : metrics.weighted_edge_cut);
  const int winner = best_rank(comm, over, objective);
  MPI_Bcast(partition.blocks.data(), static_cast<int>(partition.blocks.size()), MPI_UINT32_T,
            winner, comm.comm);
  return {partition.blocks.begin() + static_cast<std::ptrdiff_t>(first),
          partition.blocks.begin() + static_cast<std::ptrdiff_t>(first + n_local)};
}

} // namespace gnnpart::distributed
