#pragma once
// Small helpers of the streaming tests: temporary files, edge lists on disk, planted-partition
// graphs, brute-force references.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../test_files.h"
#include "core/random.h"
#include "core/types.h"
#include "streaming/generator.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming::testing {

using Edges = std::vector<std::pair<NodeID, NodeID>>;

inline std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "gnnpart_stream_" + info->test_suite_name() + "_" + info->name() +
         "_" + name;
}

using test_files::write_text;

inline std::string edge_list_text(NodeID n, const Edges& edges) {
  std::string text = "# vertices: " + std::to_string(n) + "\n";
  for (const auto& [u, v] : edges)
    text += std::to_string(u) + " " + std::to_string(v) + "\n";
  return text;
}

// The edges of a generated graph, in stream order.
inline Edges edges_of(const GeneratedGraph& graph) {
  Edges edges;
  for (std::size_t i = 0; i < graph.edges.size(); ++i)
    edges.push_back({graph.u(i), graph.v(i)});
  return edges;
}

// An edge list file with "# edges:" and "# vertices:" headers.
inline void write_edge_list(const std::string& path, NodeID n, const Edges& edges) {
  write_text(path, "# edges: " + std::to_string(edges.size()) + "\n" + edge_list_text(n, edges));
}

// Random graph with planted blocks: vertex u belongs to group label[u] (random labels, so the
// stream order does not reveal them); edges inside a group with probability p_in, across p_out.
struct Planted {
  NodeID n;
  std::vector<NodeID> group;
  Edges edges;
};
inline Planted planted_graph(NodeID n, NodeID groups, double p_in, double p_out,
                             std::uint64_t seed) {
  Rng rng(seed);
  Planted g{n, std::vector<NodeID>(n), {}};
  for (NodeID u = 0; u < n; ++u)
    g.group[u] = static_cast<NodeID>(rng.below(groups));
  for (NodeID u = 0; u < n; ++u) {
    for (NodeID v = u + 1; v < n; ++v) {
      const double p = g.group[u] == g.group[v] ? p_in : p_out;
      if (rng.uniform() < p)
        g.edges.push_back({u, v});
    }
  }
  return g;
}

// Random simple edges (u < v) in random order.
inline Edges random_edges(NodeID n, std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::set<std::pair<NodeID, NodeID>> seen;
  Edges edges;
  while (edges.size() < count) {
    NodeID u = static_cast<NodeID>(rng.below(n)), v = static_cast<NodeID>(rng.below(n));
    if (u == v)
      continue;
    if (u > v)
      std::swap(u, v);
    if (seen.insert({u, v}).second)
      edges.push_back({u, v});
  }
  return edges;
}

// All neighbour lists of a vertex stream (one pass).
inline std::vector<std::vector<NodeID>> read_all(VertexStream& stream) {
  std::vector<std::vector<NodeID>> adjacency(stream.num_nodes());
  VertexBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    for (NodeID i = 0; i < batch.size(); ++i) {
      const auto neighbors = batch.neighbors(i);
      adjacency[batch.first + i].assign(neighbors.begin(), neighbors.end());
    }
  }
  stream.end_pass();
  return adjacency;
}

// Symmetric, sorted, deduplicated adjacency of an edge list without self loops.
inline std::vector<std::vector<NodeID>> reference_adjacency(NodeID n, const Edges& edges) {
  std::vector<std::set<NodeID>> sets(n);
  for (const auto& [u, v] : edges) {
    if (u == v)
      continue;
    sets[u].insert(v);
    sets[v].insert(u);
  }
  std::vector<std::vector<NodeID>> adjacency(n);
  for (NodeID u = 0; u < n; ++u)
    adjacency[u].assign(sets[u].begin(), sets[u].end());
  return adjacency;
}

// Brute-force edge cut and communication volume of a vertex partition.
inline std::pair<std::uint64_t, std::uint64_t>
brute_cut_volume(const std::vector<std::vector<NodeID>>& adjacency,
                 const std::vector<BlockID>& blocks) {
  std::uint64_t cut = 0, volume = 0;
  for (NodeID u = 0; u < adjacency.size(); ++u) {
    std::set<BlockID> seen{blocks[u]};
    for (const NodeID v : adjacency[u]) {
      if (u < v && blocks[u] != blocks[v])
        ++cut;
      seen.insert(blocks[v]);
    }
    volume += seen.size() - 1;
  }
  return {cut, volume};
}

} // namespace gnnpart::streaming::testing
