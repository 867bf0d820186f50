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

// contract_clustering for clusters of one or two vertices labelled by their smaller member (a
// matching's labels, heavy_edge_matching): the same coarse graph and mapping, with the members
// found from the labels directly.
Contraction contract_pairs(const CsrGraph& graph, std::span<const NodeID> clusters);

} // namespace gnnpart::ml
