#include "hypergraph/column_net.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <tbb/parallel_for.h>

namespace gnnpart {

std::vector<Weight> column_net_vertex_weights(const CsrGraph& graph, ColumnNetWeights weights,
                                              int* ncon) {
  const NodeID n = graph.num_nodes();
  *ncon = 1;
  switch (weights) {
  case ColumnNetWeights::kUnit:
    return {};
  case ColumnNetWeights::kGraph: {
    *ncon = graph.ncon();
    const auto w = graph.vertex_weights();
    return std::vector<Weight>(w.begin(), w.end());
  }
  case ColumnNetWeights::kDegree:
    break;
  }
  std::vector<Weight> result(n);
  tbb::parallel_for(NodeID{0}, n, [&](NodeID u) { result[u] = Weight{graph.degree(u)} + 1; });
  return result;
}

Hypergraph build_column_net(const CsrGraph& graph, ColumnNetWeights weights) {
  const NodeID n = graph.num_nodes();
  std::vector<EdgeID> offsets(static_cast<std::size_t>(n) + 1);
  offsets[0] = 0;
  for (NodeID u = 0; u < n; ++u)
    offsets[u + 1] = offsets[u] + graph.degree(u) + 1;
  std::vector<NodeID> pins(offsets[n]);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      EdgeID pos = offsets[u];
      pins[pos++] = u;
      for (NodeID v : graph.neighbors(u))
        pins[pos++] = v;
      std::sort(pins.begin() + offsets[u], pins.begin() + offsets[u + 1]);
    }
  });
  int ncon = 1;
  std::vector<Weight> vertex_weights = column_net_vertex_weights(graph, weights, &ncon);
  return Hypergraph(n, std::move(offsets), std::move(pins), {}, ncon, std::move(vertex_weights));
}

CsrGraph graph_with_model_weights(const CsrGraph& graph, const Hypergraph& model) {
  const auto offsets = graph.offsets();
  const auto adjacency = graph.adjacency();
  const auto weights = model.vertex_weights();
  return CsrGraph({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()}, {},
                  model.ncon(), {weights.begin(), weights.end()});
}

CsrGraph graph_with_km1_prices(const CsrGraph& graph) {
  const NodeID n = graph.num_nodes();
  const auto offsets = graph.offsets();
  const auto adjacency = graph.adjacency();
  const auto vertex_weights = graph.vertex_weights();
  // 32 / d(v) once a vertex: 32 (1 / d(u) + 1 / d(v)) = 32 / d(u) + 32 / d(v) in doubles too (a
  // power of two scales without rounding), so the prices are those of the formula.
  std::vector<double> share(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      share[u] = graph.degree(u) == 0 ? 0.0 : 32.0 * (1.0 / static_cast<double>(graph.degree(u)));
  });
  std::vector<Weight> prices(adjacency.size());
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      for (EdgeID e = graph.first_edge(u); e != graph.last_edge(u); ++e) {
        // Rounded half away from zero, as std::llround (x >= 0; x - trunc(x) is exact).
        const double x = share[u] + share[adjacency[e]];
        const double whole = std::trunc(x);
        const auto rounded = static_cast<Weight>(whole) + (x - whole >= 0.5 ? 1 : 0);
        prices[e] = std::max<Weight>(1, rounded);
      }
  });
  std::vector<double>().swap(share);
  return CsrGraph({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()},
                  std::move(prices), graph.ncon(), {vertex_weights.begin(), vertex_weights.end()});
}

std::size_t km1_priced_copy_bytes(const CsrGraph& graph) {
  return graph.offsets().size() * sizeof(EdgeID) +
         graph.adjacency().size() * (sizeof(NodeID) + sizeof(Weight)) +
         graph.vertex_weights().size() * sizeof(Weight);
}

} // namespace gnnpart
