#pragma once
// k-way initial partitioning of the coarsest hypergraph by recursive bipartitioning, each
// bisection itself a multilevel run.
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// Recursive bipartitioning of hg into limits.k blocks.
std::vector<BlockID> recursive_bipartition(const Hypergraph& hg, const HgContext& ctx,
                                           const BlockLimits& limits, std::uint64_t seed);

} // namespace gnnpart::hg
