#pragma once
// Small graphs and an independent checker for the multilevel partitioner tests.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/graph.h"
#include "core/graph_builder.h"
#include "core/options.h"
#include "core/partition.h"
#include "core/random.h"

namespace gnnpart::ml_test {

inline CsrGraph graph_from_edges(NodeID n, const std::vector<std::pair<NodeID, NodeID>>& edges) {
  EdgeList list;
  list.n = n;
  for (const auto& [u, v] : edges) {
    list.sources.push_back(u);
    list.targets.push_back(v);
  }
  return build_csr(list);
}

// The edges of a rows x cols grid, vertex r * cols + c at row r, column c.
inline std::vector<std::pair<NodeID, NodeID>> grid_edges(NodeID rows, NodeID cols) {
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID r = 0; r < rows; ++r)
    for (NodeID c = 0; c < cols; ++c) {
      const NodeID u = r * cols + c;
      if (c + 1 < cols)
        edges.emplace_back(u, u + 1);
      if (r + 1 < rows)
        edges.emplace_back(u, u + cols);
    }
  return edges;
}

inline CsrGraph grid_graph(NodeID rows, NodeID cols) {
  return graph_from_edges(rows * cols, grid_edges(rows, cols));
}

inline CsrGraph random_graph(NodeID n, std::size_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (std::size_t i = 0; i < m; ++i)
    edges.emplace_back(static_cast<NodeID>(rng.below(n)), static_cast<NodeID>(rng.below(n)));
  return graph_from_edges(n, edges);
}

// Star: vertex 0 joined to every other vertex.
inline CsrGraph star_graph(NodeID n) {
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID v = 1; v < n; ++v)
    edges.emplace_back(0, v);
  return graph_from_edges(n, edges);
}

// Preferential attachment: each new vertex links to `per_vertex` endpoints of earlier edges,
// which gives a few hubs of high degree.
inline CsrGraph power_law_graph(NodeID n, int per_vertex, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::pair<NodeID, NodeID>> edges = {{0, 1}};
  std::vector<NodeID> endpoints = {0, 1};
  for (NodeID v = 2; v < n; ++v)
    for (int i = 0; i < per_vertex; ++i) {
      const NodeID t = endpoints[rng.below(endpoints.size())];
      edges.emplace_back(v, t);
      endpoints.push_back(v);
      endpoints.push_back(t);
    }
  return graph_from_edges(n, edges);
}

// power_law_graph(3000, 4, 6) with vertex weights 1 to 5 and symmetric edge weights 1 to 9 (a
// function of the two endpoints): the weighted input of the FM refiners' tests.
inline CsrGraph weighted_power_law_graph() {
  const CsrGraph plain = power_law_graph(3000, 4, 6);
  Rng rng(5);
  std::vector<Weight> vw(plain.num_nodes()), ew(plain.num_directed_edges());
  for (Weight& w : vw)
    w = 1 + static_cast<Weight>(rng.below(5));
  for (NodeID u = 0; u < plain.num_nodes(); ++u)
    for (EdgeID e = plain.first_edge(u); e < plain.last_edge(u); ++e) {
      const NodeID v = plain.edge_target(e);
      ew[e] = 1 + static_cast<Weight>(splitmix64(std::min(u, v) * 7919ULL + std::max(u, v)) % 9);
    }
  const auto offsets = plain.offsets();
  const auto adjacency = plain.adjacency();
  return CsrGraph({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()},
                  std::move(ew), 1, std::move(vw));
}

// A mesh, a power-law graph and a random graph of a few thousand vertices: inputs of the
// refinement tests.
inline std::vector<CsrGraph> refinement_test_graphs() {
  std::vector<CsrGraph> graphs;
  graphs.push_back(grid_graph(40, 40));
  graphs.push_back(power_law_graph(3000, 3, 4));
  graphs.push_back(random_graph(2000, 7000, 9));
  return graphs;
}

// A balanced but poor start for refiners: vertex u in block u mod k.
inline std::vector<BlockID> round_robin(NodeID n, BlockID k) {
  std::vector<BlockID> blocks(n);
  for (NodeID u = 0; u < n; ++u)
    blocks[u] = u % k;
  return blocks;
}

// Every stride-th vertex fixed to its block in start, the others free (kInvalidBlockID): the
// fixed vertices of the FM refiners' tests.
inline std::vector<BlockID> fix_every(std::span<const BlockID> start, NodeID stride) {
  std::vector<BlockID> fixed(start.size(), kInvalidBlockID);
  for (NodeID u = 0; u < start.size(); u += stride)
    fixed[u] = start[u];
  return fixed;
}

struct Checked {
  Weight cut = 0;    // weighted edge cut, recomputed
  Weight volume = 0; // sum of lambda - 1, recomputed
};

// Recomputes everything from the graph with plain loops: every vertex assigned to a block < k,
// no empty block when n >= k, every block within floor((1 + eps) * ceil(W_c / k)) for every
// constraint c.
inline Checked check_result(const CsrGraph& g, const Partition& p, BlockID k, double eps) {
  Checked out;
  EXPECT_EQ(p.k, k);
  EXPECT_EQ(p.blocks.size(), g.num_nodes());
  if (p.blocks.size() != g.num_nodes())
    return out;
  const int ncon = g.ncon();
  std::vector<Weight> weight(static_cast<std::size_t>(k) * ncon, 0), total(ncon, 0);
  std::vector<NodeID> size(k, 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    EXPECT_LT(p.blocks[u], k) << "vertex " << u;
    if (p.blocks[u] >= k)
      return out;
    ++size[p.blocks[u]];
    for (int c = 0; c < ncon; ++c) {
      weight[static_cast<std::size_t>(p.blocks[u]) * ncon + c] += g.vertex_weight(u, c);
      total[c] += g.vertex_weight(u, c);
    }
  }
  for (int c = 0; c < ncon; ++c) {
    const Weight perfect = (total[c] + k - 1) / k;
    const auto bound = static_cast<Weight>(std::floor((1.0 + eps) * perfect + 1e-9));
    for (BlockID b = 0; b < k; ++b)
      EXPECT_LE(weight[static_cast<std::size_t>(b) * ncon + c], bound)
          << "block " << b << " constraint " << c;
  }
  if (g.num_nodes() >= k) {
    for (BlockID b = 0; b < k; ++b)
      EXPECT_GT(size[b], 0u) << "block " << b << " is empty";
  }
  for (NodeID u = 0; u < g.num_nodes(); ++u) {
    std::vector<BlockID> seen = {p.blocks[u]};
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
      const BlockID b = p.blocks[g.edge_target(e)];
      if (b != p.blocks[u])
        out.cut += g.edge_weight(e);
      bool found = false;
      for (BlockID s : seen)
        found = found || s == b;
      if (!found)
        seen.push_back(b);
    }
    out.volume += static_cast<Weight>(seen.size()) - 1;
  }
  out.cut /= 2;
  return out;
}

// The weighted edge cut of `blocks` by a plain loop over the arcs (each cut edge seen from both
// ends).
inline Weight plain_cut(const CsrGraph& g, std::span<const BlockID> blocks) {
  Weight twice = 0;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
      if (blocks[g.edge_target(e)] != blocks[u])
        twice += g.edge_weight(e);
  return twice / 2;
}

// A Partition of k blocks holding blocks, for check_result.
inline Partition as_partition(std::vector<BlockID> blocks, BlockID k) {
  Partition result;
  result.k = k;
  result.blocks = std::move(blocks);
  return result;
}

// Options of `preset` for k blocks (the tests of one preset's behaviour).
inline PartitionOptions preset_options(Preset preset, BlockID k, std::uint64_t seed,
                                       int threads = 1, double epsilon = 0.03) {
  PartitionOptions o;
  o.k = k;
  o.seed = seed;
  o.threads = threads;
  o.epsilon = epsilon;
  o.preset = preset;
  return o;
}

// A refinement of start with fix_every(start, stride) fixed, which claims gain: within
// floor((1 + eps) * ceil(W / k)), gain the cut recounted before less after, an improvement, and
// every fixed vertex where start put it.
inline void expect_fixed_refinement(const CsrGraph& g, BlockID k, double eps,
                                    const std::vector<BlockID>& start, NodeID stride,
                                    const std::vector<BlockID>& blocks, Weight gain) {
  check_result(g, as_partition(blocks, k), k, eps);
  EXPECT_EQ(gain, plain_cut(g, start) - plain_cut(g, blocks));
  EXPECT_GT(gain, 0);
  for (NodeID u = 0; u < g.num_nodes(); u += stride)
    EXPECT_EQ(blocks[u], start[u]) << "fixed vertex " << u;
}

} // namespace gnnpart::ml_test
