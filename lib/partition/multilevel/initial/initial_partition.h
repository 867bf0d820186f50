#pragma once
// The initial-partitioning step of the graph engine's cycle, and what flows through the cycle.
#include <cstdint>
#include <span>
#include <vector>

#include "core/block_limits.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

// The inputs of one multilevel cycle (see multilevel_partition).
struct CycleInput {
  const BlockLimits& limits;
  double epsilon;
  double fraction0;
  const MultilevelContext& ctx;
  std::uint64_t seed;
  std::span<const BlockID> fixed;
  std::span<const BlockID> start;
};

// A hierarchy with a partition of its coarsest level.
struct CoarsestPartition {
  Hierarchy hierarchy;
  std::vector<BlockID> blocks;
};

// With a start partition (a V-cycle) its projection onto the coarsest level; else a bisection
// (k = 2) or recursive bisection of the coarsest graph. With fixed vertices, the better of that
// partition renamed to agree with them and blocks grown from them, both refined once.
CoarsestPartition initial_partition(Hierarchy hierarchy, const CycleInput& in);

// Renames the blocks of `blocks` so that as many fixed vertices as possible (heaviest first)
// already sit in their block, then puts every fixed vertex into its block.
void align_to_fixed(const CsrGraph& graph, BlockID k, std::span<const BlockID> fixed,
                    std::vector<BlockID>& blocks);

} // namespace gnnpart::ml
