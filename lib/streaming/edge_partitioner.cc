#include "streaming/edge_partitioner.h"

#include <string>

#include <fmt/core.h>

#include "core/errors.h"
#include "core/random.h"
#include "streaming/edge_assignment.h"
#include "streaming/edge_pass.h"
#include "streaming/progress.h"
#include "streaming/scoring.h"
#include "streaming/two_phase.h"

namespace gnnpart::streaming {
namespace {

EdgePartitionMetrics run_hdrf(EdgeStream& stream, const StreamOptions& options,
                              const EdgeBlockSink& sink, ProgressMeter* progress) {
  const BlockID k = options.k;
  // The hard edge bound needs m: a stream that does not know it yet (a text edge list; its
  // "# edges:" header is read only inside the pass) is counted in a first pass.
  if (stream.num_edges() == 0)
    count_degrees(stream, progress);
  EdgeAssignment state(stream.num_nodes(), k, stream.num_edges(), options.epsilon);
  std::vector<NodeID> degree(stream.num_nodes(), 0);
  std::vector<BlockID> blocks;
  const std::uint64_t done =
      for_each_edge_batch(stream, progress, "hdrf", [&](const EdgeBatch& batch) {
        blocks.resize(batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
          const NodeID u = batch.sources[i], v = batch.targets[i];
          const NodeID high = std::max(u, v);
          if (high >= degree.size()) {
            degree.resize(std::max<std::size_t>(high + 1, degree.size() + degree.size() / 2), 0);
          }
          state.ensure(high);
          const double du = ++degree[u];
          const double dv = u == v ? du : ++degree[v];
          const double max_size = static_cast<double>(state.max_load());
          const double min_size = static_cast<double>(state.loads().min_weight());
          BlockID best = state.loads().lightest();
          double best_score = hdrf_balance(static_cast<double>(state.loads()[best]), max_size,
                                           min_size, options.hdrf_lambda);
          state.replicas().for_each_union(u, v, [&](BlockID b) {
            if (!state.has_room(b))
              return;
            const double s = hdrf_replication(state.replicas().contains(u, b),
                                              state.replicas().contains(v, b), du, dv) +
                             hdrf_balance(static_cast<double>(state.loads()[b]), max_size, min_size,
                                          options.hdrf_lambda);
            if (s > best_score || (s == best_score && state.loads()[b] < state.loads()[best])) {
              best = b;
              best_score = s;
            }
          });
          state.assign(u, v, best);
          blocks[i] = best;
        }
        sink(batch, blocks);
      });
  return state.metrics(stream.num_nodes(), done);
}

} // namespace

BlockID dbh_block(NodeID u, NodeID v, NodeID degree_u, NodeID degree_v, BlockID k,
                  std::uint64_t seed) {
  // Hash the end with the lower degree (ties: the lower id), so high-degree vertices are cut.
  const NodeID pick = (degree_u < degree_v || (degree_u == degree_v && u <= v)) ? u : v;
  return static_cast<BlockID>(splitmix64(pick ^ derive_seed(seed, 0xdb4)) % k);
}

std::vector<NodeID> count_degrees(EdgeStream& stream, ProgressMeter* progress) {
  std::vector<NodeID> degree(stream.num_nodes(), 0);
  for_each_edge_batch(stream, progress, "degrees", [&](const EdgeBatch& batch) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const NodeID u = batch.sources[i], v = batch.targets[i];
      const NodeID high = std::max(u, v);
      if (high >= degree.size()) {
        degree.resize(std::max<std::size_t>(high + 1, degree.size() + degree.size() / 2), 0);
      }
      ++degree[u];
      if (u != v)
        ++degree[v];
    }
  });
  degree.resize(stream.num_nodes(), 0);
  return degree;
}

namespace {

EdgePartitionMetrics run_dbh(EdgeStream& stream, const StreamOptions& options,
                             const EdgeBlockSink& sink, ProgressMeter* progress) {
  const std::vector<NodeID> degree = count_degrees(stream, progress);
  const BlockID k = options.k;
  EdgeAssignment state(stream.num_nodes(), k, stream.num_edges(), options.epsilon);
  std::vector<BlockID> blocks;
  const std::uint64_t done =
      for_each_edge_batch(stream, progress, "dbh", [&](const EdgeBatch& batch) {
        blocks.resize(batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
          const NodeID u = batch.sources[i], v = batch.targets[i];
          BlockID b = dbh_block(u, v, degree[u], degree[v], k, options.seed);
          if (!state.has_room(b))
            b = state.loads().lightest(); // hard balance bound
          state.assign(u, v, b);
          blocks[i] = b;
        }
        sink(batch, blocks);
      });
  return state.metrics(stream.num_nodes(), done);
}

} // namespace

EdgePartitionMetrics stream_partition_edges(EdgeStream& stream, const StreamOptions& options,
                                            const EdgeBlockSink& sink, ProgressMeter* progress) {
  check_stream_options(options);
  switch (options.algorithm) {
  case StreamAlgorithm::kHdrf:
    return run_hdrf(stream, options, sink, progress);
  case StreamAlgorithm::kDbh:
    return run_dbh(stream, options, sink, progress);
  case StreamAlgorithm::kTwoPhase:
    return run_two_phase(stream, options, sink, progress);
  default:
    break;
  }
  throw InvalidParameter("stream_partition_edges: algorithm must be hdrf, dbh or 2ps");
}

} // namespace gnnpart::streaming
