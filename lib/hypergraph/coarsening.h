#pragma once
// The coarsening step of the hypergraph engine's cycle: clustering passes and contraction until
// the hypergraph is small (contraction_limit_multiplier * k vertices) or stops shrinking.
#include <cstdint>
#include <span>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// The levels of one multilevel run: level 0 is the input, level i > 0 is levels[i - 1];
// maps[i] takes a vertex of level i to its vertex of level i + 1.
struct HgHierarchy {
  const Hypergraph* input = nullptr;
  std::vector<Hypergraph> levels;
  std::vector<std::vector<NodeID>> maps;
  // The blocks of a given partition on the coarsest level (empty without one).
  std::vector<BlockID> communities;

  std::size_t coarsest() const { return levels.size(); }
  const Hypergraph& level(std::size_t i) const { return i == 0 ? *input : levels[i - 1]; }
};

// Coarsens hg (within the blocks of `given` if not empty) with clusters that fit the smallest
// block of `limits`.
HgHierarchy coarsen(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                    std::uint64_t seed, std::span<const BlockID> given);

} // namespace gnnpart::hg
