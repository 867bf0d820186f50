#pragma once
// Steps the two multilevel engines (partition/multilevel for graphs, hypergraph/ for
// hypergraphs) share: projecting a partition to the finer level, the recursive-bisection
// driver, the V-cycle loop and the empty-block filler. The kernels that differ (gain caches,
// pin counts, what a move costs) come in as callables.
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <tbb/parallel_invoke.h>

#include "core/types.h"

namespace gnnpart {

// The partition of the finer level: fine[u] = coarse[mapping[u]] (parallel).
std::vector<BlockID> project_partition(std::span<const NodeID> mapping,
                                       std::span<const BlockID> coarse);

// One side of a bisection solved as a problem of its own: its vertices (ids of the parent
// problem) and their blocks in [0, count).
struct SolvedSide {
  std::vector<NodeID> vertices;
  std::vector<BlockID> blocks;
};

// The recursive-bisection driver: `sides` splits n vertices into side 0 (blocks [0, k0)) and
// side 1 (blocks [k0, k)); solve(s) partitions side s on its own (both sides in parallel). The
// result numbers side 1's blocks after side 0's.
template <typename Solve>
std::vector<BlockID> merge_bisection(NodeID n, BlockID k0, Solve&& solve) {
  SolvedSide side[2];
  tbb::parallel_invoke([&] { side[0] = solve(0); }, [&] { side[1] = solve(1); });
  std::vector<BlockID> blocks(n, 0);
  for (int s = 0; s < 2; ++s)
    for (std::size_t i = 0; i < side[s].vertices.size(); ++i)
      blocks[side[s].vertices[i]] = side[s].blocks[i] + (s == 0 ? 0 : k0);
  return blocks;
}

// Uncoarsening: from the coarsest level (index `coarsest`) down to the input (index 0),
// blocks = refine(level, blocks), then blocks = project(level, blocks) onto level - 1.
template <typename Refine, typename Project>
std::vector<BlockID> uncoarsen_levels(std::size_t coarsest, std::vector<BlockID> blocks,
                                      Refine&& refine, Project&& project) {
  for (std::size_t level = coarsest + 1; level-- > 0;) {
    blocks = refine(level, std::move(blocks));
    if (level > 0)
      blocks = project(level, std::move(blocks));
  }
  return blocks;
}

// `count` V-cycles: blocks = cycle(blocks, v) for v = 0, 1, ...
template <typename Cycle>
std::vector<BlockID> repeat_vcycles(std::vector<BlockID> blocks, int count, Cycle&& cycle) {
  for (int v = 0; v < count; ++v)
    blocks = cycle(std::move(blocks), v);
  return blocks;
}

// Gives every empty block b one vertex: among the vertices u with eligible(u, b, sizes) (sizes:
// vertices per block), the first with the lowest cost(u, b); move(u, b) moves it. Returns the
// blocks that stayed empty because no vertex was eligible.
std::vector<BlockID> fill_empty_blocks(
    NodeID n, BlockID k, const std::function<BlockID(NodeID)>& block_of,
    const std::function<bool(NodeID, BlockID, std::span<const NodeID>)>& eligible,
    const std::function<Weight(NodeID, BlockID)>& cost,
    const std::function<void(NodeID, BlockID)>& move);

} // namespace gnnpart
