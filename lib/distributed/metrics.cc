#include "distributed/metrics.h"

#include <algorithm>
#include <span>


namespace gnnpart::distributed {

namespace {
constexpr BlockID kDensePairBlocks = 4096; // a 16 MiB bitmap
} // namespace

GraphMetrics compute_distributed_metrics(const Comm& comm, const DistGraph& graph,
                                         const std::vector<BlockID>& blocks, BlockID k) {
  GraphMetrics m;
  m.n = static_cast<NodeID>(graph.global_n);
  m.m = graph.global_m;
  m.k = k;
  std::vector<std::int64_t> per_block(4 * static_cast<std::size_t>(k), 0); // send recv size weight
  std::vector<std::int64_t> sums(4, 0); // cut entries, weighted cut entries, volume, boundary
  std::vector<NodeID> mark(k, kInvalidNodeID);
  // Communicating pairs (p, q): a k x k bitmap or-reduced for small k, else the distinct pair
  // ids routed to rank (id mod P) and counted there.
  const bool dense = k <= kDensePairBlocks;
  std::vector<std::uint8_t> pairs(dense ? static_cast<std::size_t>(k) * k : 0, 0);
  std::vector<std::uint64_t> sparse_pairs;
  RowReader row(graph, true); // the adjacency may still be in its scratch file
  for (NodeID u = 0; u < graph.n_local; ++u) {
    const BlockID p = blocks[u];
    per_block[2 * k + p] += 1;
    per_block[3 * k + p] += graph.vertex_weight(u);
    mark[p] = u;
    std::int64_t lambda_minus_one = 0;
    const std::span<const NodeID> neighbours = row(u);
    for (std::size_t j = 0; j < neighbours.size(); ++j) {
      const BlockID q = blocks[neighbours[j]];
      if (q == p)
        continue;
      ++sums[0];
      sums[1] += graph.edge_weight(graph.first_edge(u) + j);
      if (mark[q] == u)
        continue;
      mark[q] = u;
      ++lambda_minus_one;
      ++per_block[k + q];
      const std::uint64_t id = static_cast<std::uint64_t>(p) * k + q;
      if (dense)
        pairs[id] = 1;
      else
        sparse_pairs.push_back(id);
    }
    per_block[p] += lambda_minus_one;
    sums[2] += lambda_minus_one;
    sums[3] += lambda_minus_one > 0 ? 1 : 0;
  }
  sum_all_in_place(comm, per_block);
  sum_all_in_place(comm, sums);
  if (dense) {
    MPI_Allreduce(MPI_IN_PLACE, pairs.data(), static_cast<int>(pairs.size()), MPI_UINT8_T,
                  MPI_BOR, comm.comm);
    m.num_comm_pairs = static_cast<std::uint64_t>(std::count(pairs.begin(), pairs.end(), 1));
  } else {
    std::sort(sparse_pairs.begin(), sparse_pairs.end());
    sparse_pairs.erase(std::unique(sparse_pairs.begin(), sparse_pairs.end()), sparse_pairs.end());
    std::vector<std::uint64_t> mine = route<std::uint64_t>(comm, [&](auto&& send) {
      for (const std::uint64_t id : sparse_pairs)
        send(static_cast<int>(id % static_cast<std::uint64_t>(comm.size)), id);
    });
    std::sort(mine.begin(), mine.end());
    m.num_comm_pairs = sum_all(
        comm, static_cast<std::uint64_t>(std::unique(mine.begin(), mine.end()) - mine.begin()));
  }
  m.edge_cut = static_cast<EdgeID>(sums[0] / 2);
  m.weighted_edge_cut = sums[1] / 2;
  m.comm_volume = sums[2];
  m.boundary_vertices = static_cast<NodeID>(sums[3]);
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
