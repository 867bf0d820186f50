#include "streaming/stream_metrics.h"

#include <algorithm>
#include <bit>

#include "core/errors.h"
#include "streaming/progress.h"

namespace gnnpart::streaming {

GraphMetrics compute_stream_metrics(VertexStream& stream, const Partition& partition,
                                    ProgressMeter* progress) {
  const NodeID n = stream.num_nodes();
  const BlockID k = partition.k;
  check_partition(partition, n);
  GraphMetrics metrics;
  metrics.n = n;
  metrics.k = k;
  metrics.send_volume.assign(k, 0);
  metrics.recv_volume.assign(k, 0);
  metrics.block_sizes.assign(k, 0);
  std::vector<std::uint64_t> pair_bits((static_cast<std::uint64_t>(k) * k + 63) / 64, 0);
  std::vector<NodeID> mark(k, kInvalidNodeID);
  EdgeID directed = 0;
  VertexBatch batch;
  if (progress != nullptr)
    progress->begin("metrics", stream.num_edges(), false);
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    for (NodeID i = 0; i < batch.size(); ++i) {
      const NodeID u = batch.first + i;
      const BlockID bu = partition.blocks[u];
      ++metrics.block_sizes[bu];
      mark[bu] = u;
      Weight lambda = 1;
      for (const NodeID v : batch.neighbors(i)) {
        const BlockID bv = partition.blocks[v];
        ++directed;
        if (bv != bu && u < v)
          ++metrics.edge_cut;
        if (mark[bv] != u) {
          mark[bv] = u;
          ++lambda;
          ++metrics.recv_volume[bv];
          const std::uint64_t pair = static_cast<std::uint64_t>(bu) * k + bv;
          pair_bits[pair / 64] |= std::uint64_t{1} << (pair % 64);
        }
      }
      metrics.comm_volume += lambda - 1;
      metrics.send_volume[bu] += lambda - 1;
      if (lambda > 1)
        ++metrics.boundary_vertices;
    }
    if (progress != nullptr)
      progress->update(stream.entries_done() / 2, stream.entries_done() / 2);
  }
  stream.end_pass();
  if (progress != nullptr)
    progress->end(stream.entries_done() / 2, stream.entries_done() / 2);
  metrics.m = directed / 2;
  metrics.weighted_edge_cut = static_cast<Weight>(metrics.edge_cut);
  for (const std::uint64_t word : pair_bits)
    metrics.num_comm_pairs += std::popcount(word);
  Weight halo = 0;
  for (BlockID b = 0; b < k; ++b) {
    metrics.max_send_volume = std::max(metrics.max_send_volume, metrics.send_volume[b]);
    metrics.max_recv_volume = std::max(metrics.max_recv_volume, metrics.recv_volume[b]);
    halo += metrics.recv_volume[b];
    if (metrics.block_sizes[b] == 0)
      ++metrics.empty_blocks;
  }
  metrics.halo_ratio = n > 0 ? static_cast<double>(halo) / n : 0.0;
  metrics.imbalance_vertices = imbalance(metrics.block_sizes, n, k);
  metrics.imbalance = {metrics.imbalance_vertices};
  return metrics;
}

} // namespace gnnpart::streaming
