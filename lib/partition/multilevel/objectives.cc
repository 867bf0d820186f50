#include "partition/multilevel/objectives.h"

#include <algorithm>
#include <vector>

namespace gnnpart::ml {

Weight edge_cut(const CsrGraph& graph, std::span<const BlockID> blocks) {
  Weight cut = 0;
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      if (blocks[graph.edge_target(e)] != blocks[u])
        cut += graph.edge_weight(e);
  return cut / 2;
}

Weight communication_volume(const CsrGraph& graph, std::span<const BlockID> blocks) {
  Weight volume = 0;
  std::vector<BlockID> seen;
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    seen.assign(1, blocks[u]);
    for (NodeID v : graph.neighbors(u))
      if (std::find(seen.begin(), seen.end(), blocks[v]) == seen.end())
        seen.push_back(blocks[v]);
    volume += static_cast<Weight>(seen.size()) - 1;
  }
  return volume;
}

} // namespace gnnpart::ml
