#include "core/graph.h"

#include <algorithm>
#include <numeric>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/vertex_weights.h"

namespace gnnpart {

CsrGraph::CsrGraph(std::vector<EdgeID> offsets, std::vector<NodeID> adjacency,
                   std::vector<Weight> edge_weights, int ncon, std::vector<Weight> vertex_weights)
    : offsets_(std::move(offsets)), adjacency_(std::move(adjacency)),
      edge_weights_(std::move(edge_weights)) {
  if (offsets_.empty())
    throw InvalidParameter("CSR offsets must have n + 1 entries");
  if (offsets_.front() != 0 || offsets_.back() != adjacency_.size())
    throw InvalidParameter("CSR offsets do not match the adjacency array");
  if (!edge_weights_.empty() && edge_weights_.size() != adjacency_.size())
    throw InvalidParameter("edge weight array must have one entry per adjacency entry");
  set_vertex_weights(ncon, std::move(vertex_weights));
}

CsrGraph CsrGraph::copy() const {
  return CsrGraph(offsets_, adjacency_, edge_weights_, ncon_, vertex_weights_);
}

CsrGraph::Arrays CsrGraph::release() {
  Arrays arrays{std::move(offsets_), std::move(adjacency_), std::move(edge_weights_), ncon_,
                std::move(vertex_weights_)};
  *this = CsrGraph();
  return arrays;
}

void CsrGraph::set_vertex_weights(int ncon, std::vector<Weight> vertex_weights) {
  check_vertex_weights(ncon, vertex_weights, num_nodes());
  ncon_ = ncon;
  vertex_weights_ = std::move(vertex_weights);
}

void CsrGraph::set_edge_weights(std::vector<Weight> edge_weights) {
  if (!edge_weights.empty() && edge_weights.size() != adjacency_.size())
    throw InvalidParameter("edge weight array must have one entry per adjacency entry");
  edge_weights_ = std::move(edge_weights);
}

Weight CsrGraph::total_vertex_weight(int c) const {
  return sum_vertex_weights(vertex_weights_, ncon_, c, num_nodes());
}

NodeID find_asymmetric_vertex(const CsrGraph& graph) {
  // Sort a copy of every neighbour list by (target, weight), then look each reverse entry up
  // by binary search and compare multiplicities.
  const NodeID n = graph.num_nodes();
  const EdgeID m2 = graph.num_directed_edges();
  std::vector<std::pair<NodeID, Weight>> sorted(m2);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n), [&](const tbb::blocked_range<NodeID>& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
        sorted[e] = {graph.edge_target(e), graph.edge_weight(e)};
      std::sort(sorted.begin() + graph.first_edge(u), sorted.begin() + graph.last_edge(u));
    }
  });
  auto count = [&](NodeID u, std::pair<NodeID, Weight> key) {
    auto first = sorted.begin() + graph.first_edge(u);
    auto last = sorted.begin() + graph.last_edge(u);
    auto range = std::equal_range(first, last, key);
    return range.second - range.first;
  };
  return tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, n), kInvalidNodeID,
      [&](const tbb::blocked_range<NodeID>& r, NodeID found) {
        for (NodeID u = r.begin(); u != r.end() && u < found; ++u) {
          for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
            const auto [v, w] = sorted[e];
            if (e > graph.first_edge(u) && sorted[e - 1] == sorted[e])
              continue;
            if (v >= n || count(v, {u, w}) != count(u, {v, w}))
              return u;
          }
        }
        return found;
      },
      [](NodeID a, NodeID b) { return std::min(a, b); });
}

} // namespace gnnpart
