#include "distributed/metrics.h"

#include <algorithm>

#include "core/errors.h"

namespace gnnpart::distributed {

GraphMetrics compute_distributed_metrics(const Comm& comm, const DistGraph& graph,
                                         const std::vector<BlockID>& blocks, BlockID k) {
  GraphMetrics m;
  m.n = static_cast<NodeID>(graph.global_n);
  m.m = graph.global_m;
  m.k = k;
  std::vector<std::int64_t> per_block(4 * static_cast<std::size_t>(k), 0); // send recv size weight
  std::vector<std::int64_t> sums(4, 0); // cut entries, weighted cut entries, volume, boundary
  std::vector<NodeID> mark(k, kInvalidNodeID);
  // Communicating pairs (p, q) as a k x k bitmap reduced with a bitwise or.
  if (static_cast<std::uint64_t>(k) * k > (std::uint64_t{1} << 31))
    throw Unsupported("gnnpart-mpi counts communicating pairs for k <= 46340");
  std::vector<std::uint8_t> pairs(static_cast<std::size_t>(k) * k, 0);
  for (NodeID u = 0; u < graph.n_local; ++u) {
    const BlockID p = blocks[u];
    per_block[2 * k + p] += 1;
    per_block[3 * k + p] += graph.vertex_weight(u);
    mark[p] = u;
    std::int64_t lambda_minus_one = 0;
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
      const BlockID q = blocks[graph.adjacency[e]];
      if (q == p)
        continue;
      ++sums[0];
      sums[1] += graph.edge_weight(e);
      if (mark[q] == u)
        continue;
      mark[q] = u;
      ++lambda_minus_one;
      ++per_block[k + q];
      pairs[static_cast<std::size_t>(p) * k + q] = 1;
    }
    per_block[p] += lambda_minus_one;
    sums[2] += lambda_minus_one;
    sums[3] += lambda_minus_one > 0 ? 1 : 0;
  }
  sum_all_in_place(comm, per_block);
  sum_all_in_place(comm, sums);
  MPI_Allreduce(MPI_IN_PLACE, pairs.data(), static_cast<int>(pairs.size()), MPI_UINT8_T, MPI_BOR,
                comm.comm);
  m.edge_cut = static_cast<EdgeID>(sums[0] / 2);
  m.weighted_edge_cut = sums[1] / 2;
  m.comm_volume = sums[2];
  m.boundary_vertices = static_cast<NodeID>(sums[3]);
  m.num_comm_pairs = static_cast<std::uint64_t>(std::count(pairs.begin(), pairs.end(), 1));
  m.send_volume.assign(per_block.begin(), per_block.begin() + k);
  m.recv_volume.assign(per_block.begin() + k, per_block.begin() + 2 * k);
  m.block_sizes.assign(per_block.begin() + 2 * k, per_block.begin() + 3 * k);
  const std::vector<Weight> weights(per_block.begin() + 3 * k, per_block.end());
  Weight halo = 0;
  for (BlockID b = 0; b < k; ++b) {
    m.max_send_volume = std::max(m.max_send_volume, m.send_volume[b]);
    m.max_recv_volume = std::max(m.max_recv_volume, m.recv_volume[b]);
    halo += m.recv_volume[b];
    m.empty_blocks += m.block_sizes[b] == 0 ? 1 : 0;
  }
  m.halo_ratio = m.n == 0 ? 0.0 : static_cast<double>(halo) / m.n;
  m.imbalance_vertices = imbalance(m.block_sizes, static_cast<Weight>(m.n), k);
  m.imbalance = {imbalance(weights, graph.total_weight, k)};
  return m;
}

} // namespace gnnpart::distributed
