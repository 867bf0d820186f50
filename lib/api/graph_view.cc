#include "api/graph_view.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/graph_builder.h"
#include "core/types.h"

namespace gnnpart::api::detail {
namespace {

NodeID checked_num_nodes(std::uint64_t n) {
  if (n > kMaxNodeID)
    throw InvalidParameter(fmt::format("{} vertices exceed the id width; {}", n, kWideIdHint));
  return static_cast<NodeID>(n);
}

// ncon weights per vertex (row-major) widened to Weight; empty when none are given.
std::vector<Weight> checked_vertex_weights(IndexArray weights, int ncon, NodeID n) {
  if (ncon < 1)
    throw InvalidParameter(fmt::format("ncon = {} must be >= 1", ncon));
  if (!weights.empty() && weights.size() != static_cast<std::uint64_t>(n) * ncon)
    throw InvalidParameter(fmt::format("{} vertex weights, expected n * ncon = {}",
                                       weights.size(), static_cast<std::uint64_t>(n) * ncon));
  if (weights.empty() && ncon != 1)
    throw InvalidParameter(fmt::format("ncon = {} needs vertex weights", ncon));
  std::vector<Weight> values(weights.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = weights[i];
    if (values[i] < 0)
      throw InvalidParameter(fmt::format("vertex weight {} of vertex {} (constraint {}) is "
                                         "negative",
                                         values[i], i / ncon, i % ncon));
  }
  return values;
}

} // namespace

CsrGraph to_graph(const CsrView& view) {
  if (view.offsets.empty() || view.offsets.data() == nullptr)
    throw InvalidParameter("offsets (xadj) must hold n + 1 entries");
  if (!view.adjacency.empty() && view.adjacency.data() == nullptr)
    throw InvalidParameter("adjacency (adjncy) is NULL");
  const NodeID n = checked_num_nodes(view.offsets.size() - 1);
  std::vector<Weight> vertex_weights = checked_vertex_weights(view.vertex_weights, view.ncon, n);
  if (view.offsets[0] != 0)
    throw InvalidParameter(fmt::format("offsets[0] = {} must be 0", view.offsets[0]));
  for (NodeID u = 0; u < n; ++u)
    if (view.offsets[u + 1] < view.offsets[u])
      throw InvalidParameter(fmt::format("offsets decrease at vertex {}", u));
  const std::int64_t entries = view.offsets[n];
  if (static_cast<std::uint64_t>(entries) != view.adjacency.size())
    throw InvalidParameter(fmt::format("offsets[n] = {} but the adjacency has {} entries", entries,
                                       view.adjacency.size()));
  const bool edge_weighted = !view.edge_weights.empty();
  if (edge_weighted && view.edge_weights.size() != view.adjacency.size())
    throw InvalidParameter(fmt::format("{} edge weights for {} adjacency entries",
                                       view.edge_weights.size(), view.adjacency.size()));

  std::vector<EdgeID> offsets(static_cast<std::size_t>(n) + 1, 0);
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  adjacency.reserve(view.adjacency.size());
  if (edge_weighted)
    edge_weights.reserve(view.adjacency.size());
  for (NodeID u = 0; u < n; ++u) {
    const auto first = static_cast<std::size_t>(view.offsets[u]);
    const auto last = static_cast<std::size_t>(view.offsets[u + 1]);
    for (std::size_t e = first; e < last; ++e) {
      const std::int64_t v = view.adjacency[e];
      if (v < 0 || v >= static_cast<std::int64_t>(n))
        throw InvalidParameter(fmt::format("vertex {} has neighbour {} outside [0, {})", u, v, n));
      if (edge_weighted && view.edge_weights[e] <= 0)
        throw InvalidParameter(fmt::format("edge weight {} of entry {} (vertex {}) must be > 0",
                                           view.edge_weights[e], e, u));
      if (v == static_cast<std::int64_t>(u))
        continue; // self loops carry no communication
      adjacency.push_back(static_cast<NodeID>(v));
      if (edge_weighted)
        edge_weights.push_back(view.edge_weights[e]);
    }
    offsets[u + 1] = adjacency.size();
  }
  const int ncon = vertex_weights.empty() ? 1 : view.ncon;
  CsrGraph graph(std::move(offsets), std::move(adjacency), std::move(edge_weights), ncon,
                 std::move(vertex_weights));
  const NodeID bad = find_asymmetric_vertex(graph);
  if (bad != kInvalidNodeID)
    throw InvalidParameter(fmt::format(
        "adjacency is not symmetric: vertex {} has an entry without its reverse (every edge "
        "must be stored in both directions with the same weight)",
        bad));
  return graph;
}

CsrGraph to_graph(const EdgeView& view) {
  if (view.sources.size() != view.targets.size())
    throw InvalidParameter(
        fmt::format("{} sources but {} targets", view.sources.size(), view.targets.size()));
  if (!view.sources.empty() && (view.sources.data() == nullptr || view.targets.data() == nullptr))
    throw InvalidParameter("edge arrays are NULL");
  std::int64_t max_id = -1;
  for (std::size_t i = 0; i < view.sources.size(); ++i) {
    const std::int64_t s = view.sources[i];
    const std::int64_t t = view.targets[i];
    if (s < 0 || t < 0)
      throw InvalidParameter(fmt::format("edge {} has a negative vertex id", i));
    max_id = std::max({max_id, s, t});
  }
  const std::uint64_t n =
      view.num_nodes != 0 ? view.num_nodes : static_cast<std::uint64_t>(max_id + 1);
  if (max_id >= 0 && static_cast<std::uint64_t>(max_id) >= n)
    throw InvalidParameter(fmt::format("vertex id {} >= num_nodes = {}", max_id, n));
  EdgeList list;
  list.n = checked_num_nodes(n);
  list.sources.resize(view.sources.size());
  list.targets.resize(view.targets.size());
  for (std::size_t i = 0; i < view.sources.size(); ++i) {
    list.sources[i] = static_cast<NodeID>(view.sources[i]);
    list.targets[i] = static_cast<NodeID>(view.targets[i]);
  }
  std::vector<Weight> vertex_weights = checked_vertex_weights(view.vertex_weights, view.ncon, list.n);
  CsrGraph graph = build_csr(list);
  if (!vertex_weights.empty())
    graph.set_vertex_weights(view.ncon, std::move(vertex_weights));
  return graph;
}

Partition to_partition(IndexArray blocks, BlockID k, NodeID n) {
  if (k == 0)
    throw InvalidParameter("k must be >= 1");
  if (blocks.size() != n)
    throw InvalidParameter(fmt::format("{} block ids for {} vertices", blocks.size(), n));
  if (n > 0 && blocks.data() == nullptr)
    throw InvalidParameter("block array is NULL");
  Partition partition;
  partition.k = k;
  partition.blocks.resize(n);
  for (NodeID u = 0; u < n; ++u) {
    const std::int64_t b = blocks[u];
    if (b < 0 || b >= static_cast<std::int64_t>(k))
      throw InvalidParameter(fmt::format("vertex {} has block {} outside [0, {})", u, b, k));
    partition.blocks[u] = static_cast<BlockID>(b);
  }
  return partition;
}

Metrics to_metrics(const GraphMetrics& m) {
  Metrics out;
  out.n = m.n;
  out.m = m.m;
  out.k = m.k;
  out.edge_cut = m.edge_cut;
  out.weighted_edge_cut = m.weighted_edge_cut;
  out.comm_volume = m.comm_volume;
  out.max_send_volume = m.max_send_volume;
  out.max_recv_volume = m.max_recv_volume;
  out.max_block_volume = m.max_block_volume;
  out.boundary_vertices = m.boundary_vertices;
  out.empty_blocks = m.empty_blocks;
  out.block_sizes.assign(m.block_sizes.begin(), m.block_sizes.end());
  out.imbalance = m.imbalance;
  out.num_comm_pairs = m.num_comm_pairs;
  out.halo_ratio = m.halo_ratio;
  out.imbalance_vertices = m.imbalance_vertices;
  return out;
}

} // namespace gnnpart::api::detail
