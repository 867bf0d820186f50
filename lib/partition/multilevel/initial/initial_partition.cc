#include "partition/multilevel/initial/initial_partition.h"

#include <algorithm>

#include "core/random.h"
#include "partition/multilevel/initial/bisection.h"
#include "partition/multilevel/initial/fixed_growing.h"
#include "partition/multilevel/initial/recursive_bisection.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart::ml {

namespace {

// A partition of the coarsest graph, free of the fixed vertices.
std::vector<BlockID> free_partition(Hierarchy& hierarchy, const CycleInput& in) {
  const BlockLimits& limits = in.limits;
  const CsrGraph& coarsest = hierarchy.graph(hierarchy.coarsest());
  if (!in.start.empty()) {
    // V-cycle: the coarsest vertices lie within blocks of `start`, which is their partition.
    return hierarchy.levels.empty() ? std::vector<BlockID>(in.start.begin(), in.start.end())
                                    : std::move(hierarchy.levels.back().communities);
  }
  if (limits.k == 2)
    return initial_bisection(coarsest, limits, in.fraction0, in.ctx.initial,
                             derive_seed(in.seed, 50));
  std::vector<Weight> final_max(coarsest.ncon());
  for (int c = 0; c < coarsest.ncon(); ++c)
    final_max[c] = limits.max(0, c);
  return recursive_bisection(coarsest, limits.k, final_max, in.ctx, derive_seed(in.seed, 51));
}

// Two starts for the pins: the free partition renamed to agree with them, and blocks grown from
// them. The one with the lower cut after refinement on the coarsest graph wins.
std::vector<BlockID> respect_fixed(const Hierarchy& hierarchy, std::vector<BlockID> blocks,
                                   const CycleInput& in) {
  const BlockLimits& limits = in.limits;
  const BlockID k = limits.k;
  const std::size_t level = hierarchy.coarsest();
  const CsrGraph& coarsest = hierarchy.graph(level);
  const std::span<const BlockID> coarsest_fixed = hierarchy.fixed(level);
  align_to_fixed(coarsest, k, coarsest_fixed, blocks);
  const std::uint64_t coarsest_seed = derive_seed(in.seed, 60, level);
  PartitionedGraph renamed(coarsest, k, std::move(blocks));
  renamed.fix(coarsest_fixed);
  refine_level(renamed, limits, in.ctx, coarsest_seed);
  PartitionedGraph grown(coarsest, k, grow_from_fixed(coarsest, limits, coarsest_fixed));
  grown.fix(coarsest_fixed);
  refine_level(grown, limits, in.ctx, coarsest_seed);
  const bool grown_wins =
      (grown.balanced(limits) && !renamed.balanced(limits)) ||
      (grown.balanced(limits) == renamed.balanced(limits) &&
       edge_cut(coarsest, grown.blocks()) < edge_cut(coarsest, renamed.blocks()));
  return grown_wins ? grown.take_blocks() : renamed.take_blocks();
}

} // namespace

CoarsestPartition initial_partition(Hierarchy hierarchy, const CycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "initial partition");
  std::vector<BlockID> blocks = free_partition(hierarchy, in);
  if (!in.fixed.empty() && in.start.empty())
    blocks = respect_fixed(hierarchy, std::move(blocks), in);
  return {std::move(hierarchy), std::move(blocks)};
}

void align_to_fixed(const CsrGraph& graph, BlockID k, std::span<const BlockID> fixed,
                    std::vector<BlockID>& blocks) {
  std::vector<NodeID> pinned;
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    if (fixed[u] != kInvalidBlockID)
      pinned.push_back(u);
  std::stable_sort(pinned.begin(), pinned.end(), [&](NodeID a, NodeID b) {
    return graph.vertex_weight(a) > graph.vertex_weight(b);
  });
  std::vector<BlockID> rename(k, kInvalidBlockID);
  std::vector<bool> used(k, false);
  for (const NodeID u : pinned) {
    if (rename[blocks[u]] == kInvalidBlockID && !used[fixed[u]]) {
      rename[blocks[u]] = fixed[u];
      used[fixed[u]] = true;
    }
  }
  BlockID next = 0;
  for (BlockID b = 0; b < k; ++b) {
    if (rename[b] != kInvalidBlockID)
      continue;
    while (used[next])
      ++next;
    rename[b] = next;
    used[next] = true;
  }
  for (BlockID& b : blocks)
    b = rename[b];
  for (const NodeID u : pinned)
    blocks[u] = fixed[u];
}

} // namespace gnnpart::ml
