#include "partition/multilevel/subgraph.h"

namespace gnnpart::ml {

std::vector<Subgraph> extract_block_subgraphs(const CsrGraph& graph,
                                              std::span<const BlockID> blocks, BlockID k) {
  const NodeID n = graph.num_nodes();
  const int ncon = graph.ncon();
  std::vector<Subgraph> result(k);
  std::vector<NodeID> local(n);
  std::vector<EdgeID> arcs(k, 0); // an upper bound on each block's arcs, for the reservation
  for (NodeID u = 0; u < n; ++u) {
    auto& nodes = result[blocks[u]].nodes;
    local[u] = static_cast<NodeID>(nodes.size());
    nodes.push_back(u);
    arcs[blocks[u]] += graph.degree(u);
  }
  for (BlockID b = 0; b < k; ++b) {
    const auto& nodes = result[b].nodes;
    std::vector<EdgeID> offsets(nodes.size() + 1, 0);
    std::vector<NodeID> adjacency;
    std::vector<Weight> edge_weights;
    adjacency.reserve(arcs[b]);
    edge_weights.reserve(arcs[b]);
    std::vector<Weight> vertex_weights(nodes.size() * ncon);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const NodeID u = nodes[i];
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const NodeID v = graph.edge_target(e);
        if (blocks[v] != b)
          continue;
        adjacency.push_back(local[v]);
        edge_weights.push_back(graph.edge_weight(e));
      }
      offsets[i + 1] = adjacency.size();
      for (int c = 0; c < ncon; ++c)
        vertex_weights[i * ncon + c] = graph.vertex_weight(u, c);
    }
    result[b].graph = CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights),
                               ncon, std::move(vertex_weights));
  }
  return result;
}

} // namespace gnnpart::ml
