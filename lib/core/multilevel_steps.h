#pragma once
// Steps the two multilevel engines (partition/multilevel for graphs, hypergraph/ for
// hypergraphs) share: projecting a partition to the finer level, the recursive-bisection
// driver, the V-cycle loop and the empty-block filler. The kernels that differ (gain caches,
// pin counts, what a move costs) come in as callables.
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "core/options.h"
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

// Synchronous sub-rounds (label propagation, clustering): sub-round `index` of `count` covers
// positions [begin, end) of a vertex order of n; body(blocked_range) runs over them in parallel,
// and the caller then applies their moves in order.
struct SubRound {
  std::size_t begin;
  std::size_t end;
};
inline SubRound sub_round(std::size_t n, int index, int count) {
  return {n * static_cast<std::size_t>(index) / static_cast<std::size_t>(count),
          n * static_cast<std::size_t>(index + 1) / static_cast<std::size_t>(count)};
}
template <typename Body>
void parallel_over(SubRound sub, Body&& body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(sub.begin, sub.end, 256), body);
}

// The preset's literal among the three of an engine.
template <typename Context>
const Context& select_preset(Preset preset, const Context& fast, const Context& normal,
                             const Context& strong) {
  switch (preset) {
  case Preset::kFast:
    return fast;
  case Preset::kStrong:
    return strong;
  case Preset::kDefault:
    break;
  }
  return normal;
}

// A copy of an engine's preset with the run's k, epsilon, seed and objective.
template <typename Context>
Context context_for_run(const Context& preset, const PartitionOptions& options) {
  Context ctx = preset;
  ctx.k = options.k;
  ctx.epsilon = options.epsilon;
  ctx.seed = options.seed;
  ctx.objective = options.objective;
  return ctx;
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
