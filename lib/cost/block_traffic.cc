#include "cost/block_traffic.h"

#include <algorithm>

namespace gnnpart::cost {

std::vector<BlockTraffic> block_traffic(const CsrGraph& graph, const Partition& partition) {
  check_partition(partition, graph.num_nodes());
  std::vector<BlockTraffic> blocks(partition.k);
  std::vector<std::uint64_t> pairs; // (sender << 32 | receiver) of every message
  std::vector<BlockID> seen;        // distinct remote blocks of the current vertex
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    const BlockID b = partition.blocks[u];
    BlockTraffic& mine = blocks[b];
    mine.rows += 1;
    mine.local_nnz += 1; // self loop of A + I
    seen.clear();
    for (const NodeID v : graph.neighbors(u)) {
      const BlockID c = partition.blocks[v];
      if (c == b) {
        mine.local_nnz += 1;
        continue;
      }
      mine.halo_nnz += 1;
      if (std::find(seen.begin(), seen.end(), c) == seen.end())
        seen.push_back(c);
    }
    // u's row goes once to every other block that holds u as halo.
    for (const BlockID c : seen) {
      mine.send_rows += 1;
      blocks[c].recv_rows += 1;
      blocks[c].halo += 1;
      pairs.push_back(static_cast<std::uint64_t>(b) << 32 | c);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const std::uint64_t pair : pairs) {
    blocks[pair >> 32].send_messages += 1;
    blocks[pair & 0xffffffffu].recv_messages += 1;
  }
  const std::vector<BlockReuse> reuse = block_reuse(graph, partition);
  for (BlockID b = 0; b < partition.k; ++b) {
    blocks[b].local_reuse = reuse[b].local;
    blocks[b].halo_reuse = reuse[b].halo;
  }
  return blocks;
}

} // namespace gnnpart::cost
