#include "core/multilevel_steps.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace gnnpart {

std::vector<BlockID> project_partition(std::span<const NodeID> mapping,
                                       std::span<const BlockID> coarse) {
  std::vector<BlockID> fine(mapping.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mapping.size(), 4096), [&](const auto& r) {
    for (std::size_t u = r.begin(); u != r.end(); ++u)
      fine[u] = coarse[mapping[u]];
  });
  return fine;
}

std::vector<BlockID> fill_empty_blocks(
    NodeID n, BlockID k, const std::function<BlockID(NodeID)>& block_of,
    const std::function<bool(NodeID, BlockID, std::span<const NodeID>)>& eligible,
    const std::function<Weight(NodeID, BlockID)>& cost,
    const std::function<void(NodeID, BlockID)>& move) {
  std::vector<NodeID> sizes(k, 0);
  for (NodeID u = 0; u < n; ++u)
    ++sizes[block_of(u)];
  std::vector<BlockID> still_empty;
  for (BlockID b = 0; b < k; ++b) {
    if (sizes[b] > 0)
      continue;
    NodeID best = kInvalidNodeID;
    Weight best_cost = 0;
    for (NodeID u = 0; u < n; ++u) {
      if (!eligible(u, b, sizes))
        continue;
      const Weight c = cost(u, b);
      if (best == kInvalidNodeID || c < best_cost) {
        best = u;
        best_cost = c;
      }
    }
    if (best == kInvalidNodeID) {
      still_empty.push_back(b);
      continue;
    }
    --sizes[block_of(best)];
    move(best, b);
    ++sizes[b];
  }
  return still_empty;
}

} // namespace gnnpart
