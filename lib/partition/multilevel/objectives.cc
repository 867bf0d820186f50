#include "partition/multilevel/objectives.h"

#include <algorithm>
#include <functional>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

namespace gnnpart::ml {

Weight edge_cut(const CsrGraph& graph, std::span<const BlockID> blocks) {
  // An integer sum: the same for any split of the range.
  const Weight twice = tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, graph.num_nodes(), 1024), Weight{0},
      [&](const auto& r, Weight cut) {
        for (NodeID u = r.begin(); u != r.end(); ++u)
          for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
            if (blocks[graph.edge_target(e)] != blocks[u])
              cut += graph.edge_weight(e);
        return cut;
      },
      std::plus<>());
  return twice / 2;
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
