#include "core/partition.h"

#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/graph.h"
#include "core/hypergraph.h"

namespace gnnpart {

Weight max_block_weight(Weight total, BlockID k, double epsilon) {
  const Weight perfect = (total + static_cast<Weight>(k) - 1) / static_cast<Weight>(k);
  // The small slack keeps (1 + 0.03) * 100 from rounding down to 102.
  return static_cast<Weight>(std::floor((1.0 + epsilon) * static_cast<double>(perfect) + 1e-9));
}

namespace {
template <typename G>
std::vector<Weight> weights_per_block(const G& g, const Partition& partition) {
  check_partition(partition, g.num_nodes());
  const int ncon = g.ncon();
  std::vector<Weight> weights(static_cast<std::size_t>(partition.k) * ncon, 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    for (int c = 0; c < ncon; ++c)
      weights[static_cast<std::size_t>(partition.blocks[u]) * ncon + c] += g.vertex_weight(u, c);
  }
  return weights;
}
}  // namespace

std::vector<Weight> block_weights(const CsrGraph& graph, const Partition& partition) {
  return weights_per_block(graph, partition);
}

std::vector<Weight> block_weights(const Hypergraph& hypergraph, const Partition& partition) {
  return weights_per_block(hypergraph, partition);
}

void check_partition(const Partition& partition, NodeID n) {
  if (partition.k < 1) throw InvalidParameter("a partition needs k >= 1");
  if (partition.blocks.size() != n)
    throw InvalidParameter(fmt::format("partition has {} entries for {} vertices",
                                       partition.blocks.size(), n));
  for (NodeID u = 0; u < n; ++u) {
    if (partition.blocks[u] >= partition.k)
      throw InvalidParameter(fmt::format("vertex {} is in block {}, but k = {}", u,
                                         partition.blocks[u], partition.k));
  }
}

}  // namespace gnnpart
