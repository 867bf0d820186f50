// partition_graph: checks the request, dispatches to the chosen algorithm, and verifies the
// promise of partitioner.h (k blocks, all vertices assigned, bound respected, no empty block
// when n >= k) before handing the result back.
#include "partition/partitioner.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "partition/metis_backend.h"

namespace gnnpart {

void check_balance_feasible(const CsrGraph& graph, BlockID k, double epsilon) {
  if (k < 1)
    throw InvalidParameter("k must be at least 1");
  if (!(epsilon >= 0))
    throw InvalidParameter("epsilon must be >= 0");
  const int ncon = graph.ncon();
  if (!graph.has_vertex_weights())
    return; // unit weights: a vertex always fits
  const std::vector<Weight> bounds = balance_bounds(graph, k, epsilon); // rejects negatives
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    for (int c = 0; c < ncon; ++c) {
      const Weight w = graph.vertex_weight(u, c);
      if (w > bounds[c])
        throw InfeasibleBalance(
            fmt::format("vertex {} weighs {} in constraint {}, more than a block may carry ({} = "
                        "floor((1 + {}) * ceil({} / {}))); raise --epsilon or lower k",
                        u, w, c, bounds[c], epsilon, graph.total_vertex_weight(c), k));
    }
  }
}

Partition partition_graph(const CsrGraph& graph, const PartitionOptions& options) {
  const NodeID n = graph.num_nodes();
  check_options(options, n);
  if (options.model != Model::kGraph)
    throw Unsupported(
        fmt::format("partition_graph takes the graph model, not {}", to_string(options.model)));
  if (options.objective != Objective::kCut && options.objective != Objective::kVolume)
    throw Unsupported(fmt::format("the graph model optimizes --objective cut or volume, not {}",
                                  to_string(options.objective)));
  check_balance_feasible(graph, options.k, options.epsilon);

  Partition partition;
  switch (options.algorithm) {
  case Algorithm::kMultilevel:
    partition = partition_graph_multilevel(graph, options);
    break;
  case Algorithm::kMetis:
    partition = partition_graph_metis(graph, options);
    break;
  }

  const std::string_view algo = to_string(options.algorithm);
  if (partition.k != options.k)
    throw Error(fmt::format("internal error: {} returned k = {} instead of {}", algo, partition.k,
                            options.k));
  check_partition(partition, n);
  const std::vector<Weight> bounds = balance_bounds(graph, options.k, options.epsilon);
  const std::vector<Weight> weights = block_weights(graph, partition);
  const int ncon = graph.ncon();
  std::vector<NodeID> sizes(options.k, 0);
  for (const BlockID b : partition.blocks)
    ++sizes[b];
  for (BlockID b = 0; b < options.k; ++b) {
    if (n >= options.k && sizes[b] == 0)
      throw Error(fmt::format("internal error: {} left block {} empty", algo, b));
    for (int c = 0; c < ncon; ++c) {
      const Weight w = weights[static_cast<std::size_t>(b) * ncon + c];
      if (w > bounds[c])
        throw Error(fmt::format("internal error: {} gave block {} weight {} in constraint {} "
                                "(bound {})",
                                algo, b, w, c, bounds[c]));
    }
  }
  return partition;
}

} // namespace gnnpart
