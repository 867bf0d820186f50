#pragma once
// Bisection of a hypergraph with many connected components (dblp-2010: 48493 components, the
// largest with 69% of the vertices). Only the largest component needs a cut: every other one
// goes whole to one side, at no cost. So the largest is bisected with each of its sides allowed
// up to its block's limit, not half of its own weight, and its cut may sit at any ratio that the
// other components can fill up to a balanced bisection; they are then placed, heaviest first,
// on the side with more room left.
// Not called by the partitioner: measured as an extra candidate at k = 2 (the better kept),
// dblp-2010 went 16744 -> 16707 in default at twice the time and 1.3x the peak RSS, and stayed
// at 15697 in strong at 4.1x the CPU time and 302 instead of 188 MB (docs/hypergraph.md).
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"
#include "hypergraph/km1_gain_cache.h"

namespace gnnpart::hg {

// Component of every vertex, numbered by smallest vertex (component c's smallest vertex comes
// before component c + 1's). Sequential union-find over the nets.
std::vector<NodeID> hypergraph_components(const Hypergraph& hg, NodeID* count);

// A balanced bisection under `limits` (k = 2, one constraint) built as above, or empty when it
// does not apply: one constraint only, and the components other than the largest weigh at
// least epsilon_share of the total (below, the relaxed limits leave the largest component little
// more room than a plain bisection), or their greedy placement does not fit.
std::vector<BlockID> component_bisection(const Hypergraph& hg, const HgContext& ctx,
                                         const BlockLimits& limits, std::uint64_t seed,
                                         Km1GainCache& cache);

} // namespace gnnpart::hg
