#pragma once
// Contracts a clustering into a coarse graph: cluster labels compacted in label order, parallel
// edges summed, self loops dropped, vertex weights summed per constraint. Deterministic.
#include <span>
#include <vector>

#include "core/graph.h"

namespace gnnpart::ml {

struct Contraction {
  CsrGraph coarse;
  std::vector<NodeID> mapping; // fine vertex -> coarse vertex
};

Contraction contract_clustering(const CsrGraph& graph, std::span<const NodeID> clusters);

} // namespace gnnpart::ml
