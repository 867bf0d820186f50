#pragma once
// Flat initial bisection of a small (coarsest) hypergraph: a portfolio of greedy hypergraph
// growing, BFS, random and label-propagation starts, each followed by rebalancing and 2-way FM;
// the best result wins (balanced first, then objective). Deterministic for a seed.
#include <cstdint>
#include <vector>

#include "core/hypergraph.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

std::vector<BlockID> flat_bisection(const Hypergraph& hg, const HgContext& ctx,
                                    const BlockLimits& limits, std::uint64_t seed);

} // namespace gnnpart::hg
