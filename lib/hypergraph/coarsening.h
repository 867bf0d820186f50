#pragma once
// The coarsening step of the hypergraph engine's cycle: clustering passes and contraction until
// the hypergraph is small (contraction_limit_multiplier * k vertices) or stops shrinking.
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"
#include "hypergraph/level_map.h"
#include "hypergraph/packed_nets.h"

namespace gnnpart::hg {

// A coarse level between its contraction and its refinement: its net -> pins arrays only,
// packed (packed_nets.h: 1-3 bytes per pin instead of 4, about 2 per net instead of 16).
// Nothing reads a level's vertex -> nets arrays in that time (clustering reads the level being
// contracted, refinement the level being refined, and the contraction of the next level reads
// the packed nets), so they are built again when it is refined (the same Hypergraph again: its
// construction is deterministic).
using ParkedLevel = PackedNets;

// The levels of one multilevel run: level 0 is the input, level i > 0 is levels[i - 1]
// (parked[i - 1] while parked); maps[i] takes a vertex of level i to its vertex of level i + 1
// (level_map.h: 2 bytes an entry where level i + 1 has at most 2^16 vertices).
struct HgHierarchy {
  const Hypergraph* input = nullptr;
  std::vector<Hypergraph> levels;
  std::vector<ParkedLevel> parked;
  std::vector<LevelMap> maps;
  // The blocks of a given partition on the coarsest level (empty without one).
  std::vector<BlockID> communities;
  // The input's nets while they are packed (HgContext::parkable_input), from the contraction of
  // level 1 to the refinement of level 0.
  PackedInput packed_input;

  std::size_t coarsest() const { return levels.size(); }
  // Level i, which must not be parked.
  const Hypergraph& level(std::size_t i) const { return i == 0 ? *input : levels[i - 1]; }
  // Level i, built again first if parked (the input: its pins put back if packed).
  const Hypergraph& unpark(std::size_t i);
  // Keeps the levels up to i (0: the input alone).
  void truncate(std::size_t i);
};

// Coarsens hg (within the blocks of `given` if not empty) with clusters that fit the smallest
// block of `limits`. `given` becomes `communities`, replaced by its coarse version at each
// level, so the input's partition is freed once level 1 is clustered.
HgHierarchy coarsen(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                    std::uint64_t seed, std::vector<BlockID> given);

} // namespace gnnpart::hg
