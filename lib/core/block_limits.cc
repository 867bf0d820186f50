#include "core/block_limits.h"

#include "core/graph.h"
#include "core/hypergraph.h"
#include "core/partition.h"

namespace gnnpart {

namespace {
template <typename G>
std::vector<Weight> totals_of(const G& g) {
  std::vector<Weight> total(g.ncon(), 0);
  for (int c = 0; c < g.ncon(); ++c)
    total[c] = g.total_vertex_weight(c);
  return total;
}
} // namespace

std::vector<Weight> vertex_weight_totals(const CsrGraph& graph) { return totals_of(graph); }
std::vector<Weight> vertex_weight_totals(const Hypergraph& hg) { return totals_of(hg); }

std::vector<Weight> balance_bounds(std::span<const Weight> totals, BlockID k, double epsilon) {
  std::vector<Weight> bounds(totals.begin(), totals.end());
  for (Weight& b : bounds)
    b = max_block_weight(b, k, epsilon);
  return bounds;
}

BlockLimits uniform_limits(std::span<const Weight> totals, BlockID k, double epsilon) {
  BlockLimits l;
  l.k = k;
  l.ncon = static_cast<int>(totals.size());
  l.max_weight.resize(static_cast<std::size_t>(k) * l.ncon);
  l.perfect.resize(l.max_weight.size());
  for (BlockID b = 0; b < k; ++b)
    for (int c = 0; c < l.ncon; ++c) {
      const std::size_t i = static_cast<std::size_t>(b) * l.ncon + c;
      l.max_weight[i] = max_block_weight(totals[c], k, epsilon);
      l.perfect[i] = (totals[c] + k - 1) / k;
    }
  return l;
}

BlockLimits uniform_limits(const CsrGraph& graph, BlockID k, double epsilon) {
  return uniform_limits(vertex_weight_totals(graph), k, epsilon);
}

BlockLimits uniform_limits(const Hypergraph& hg, BlockID k, double epsilon) {
  return uniform_limits(vertex_weight_totals(hg), k, epsilon);
}

BlockLimits sub_limits(const BlockLimits& limits, BlockID first, BlockID count) {
  BlockLimits l;
  l.k = count;
  l.ncon = limits.ncon;
  const std::size_t from = static_cast<std::size_t>(first) * limits.ncon;
  const std::size_t to = static_cast<std::size_t>(first + count) * limits.ncon;
  l.max_weight.assign(limits.max_weight.begin() + from, limits.max_weight.begin() + to);
  l.perfect.assign(limits.perfect.begin() + from, limits.perfect.begin() + to);
  return l;
}

} // namespace gnnpart
