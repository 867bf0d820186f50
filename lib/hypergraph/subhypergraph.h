#pragma once
// The sub-hypergraph induced by one block of a partition, for recursive bipartitioning.
// km1 and soed keep the part of every net inside the block (net splitting); cut keeps only the
// nets entirely inside it (cut-net removal). Nets with fewer than two pins are dropped.
#include <span>
#include <vector>

#include "core/hypergraph.h"
#include "core/options.h"

namespace gnnpart::hg {

struct SubHypergraph {
  Hypergraph hypergraph;
  std::vector<NodeID> original; // original[v] = vertex of the parent hypergraph
};

SubHypergraph extract_block(const Hypergraph& hg, std::span<const BlockID> blocks, BlockID block,
                            Objective objective);

} // namespace gnnpart::hg
