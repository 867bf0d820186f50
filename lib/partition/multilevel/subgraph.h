#pragma once
// Induced subgraphs of the blocks of a partition, with explicit edge and vertex weights.
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::ml {

struct Subgraph {
  CsrGraph graph;
  std::vector<NodeID> nodes; // subgraph vertex -> vertex of the parent graph
};

// One subgraph per block b < k: vertices with blocks[u] == b, edges inside b.
std::vector<Subgraph> extract_block_subgraphs(const CsrGraph& graph,
                                              std::span<const BlockID> blocks, BlockID k);

} // namespace gnnpart::ml
