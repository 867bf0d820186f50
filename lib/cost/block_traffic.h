#pragma once
// What each block of a vertex partition holds and moves in one halo exchange of a full-batch
// GCN (the 1D row layout of lib/core/layout.h, computed straight from the graph): owned rows,
// halo rows, nonzeros of A_hat against owned and halo columns, rows and messages sent and
// received per exchange.
#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"
#include "cost/reuse_distance.h"

namespace gnnpart::cost {

struct BlockTraffic {
  std::uint64_t rows = 0;      // owned vertices
  std::uint64_t halo = 0;      // remote vertices adjacent to owned ones
  std::uint64_t local_nnz = 0; // A_hat entries with an owned column, self loops included
  std::uint64_t halo_nnz = 0;  // A_hat entries with a halo column
  std::uint64_t send_rows = 0; // per forward exchange (sum over neighbours)
  std::uint64_t recv_rows = 0; // = halo
  std::uint64_t send_messages = 0;
  std::uint64_t recv_messages = 0;
  // How far back the SpMM's operand rows were last read (reuse_distance.h); empty (as the
  // hypergraph engine's incremental traffic leaves them): every read priced as a random one.
  ReuseHistogram local_reuse;
  ReuseHistogram halo_reuse;
};

// One entry per block, reuse histograms included. Throws InvalidParameter when the partition
// does not fit the graph.
std::vector<BlockTraffic> block_traffic(const CsrGraph& graph, const Partition& partition);

} // namespace gnnpart::cost
