#include "hypergraph/volume_bisection.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/graph.h"
#include "core/random.h"
#include "hypergraph/multilevel_start.h"

namespace gnnpart::hg {

namespace {

// Units of a row in the second constraint: the receive shares 1 / c are rounded to 1 / 60.
constexpr Weight kVolumeScale = 60;

BlockID smallest_prime_factor(BlockID k) {
  for (BlockID f = 2; f * f <= k; ++f)
    if (k % f == 0)
      return f;
  return k;
}

int count_splits(BlockID k) {
  int splits = 0;
  while (k > 1) {
    k /= smallest_prime_factor(k);
    ++splits;
  }
  return splits;
}

// A part of the recursion: blocks [first, first + count) of the result.
struct Part {
  BlockID first = 0;
  BlockID count = 1;
};

// The part's vertices as a graph (edges inside the part only) with two constraints: the
// vertex weight, and second[u] raised by an offset that lets the second sums differ by about
// `imbalance` when the first are at their share; a vertex's second weight is capped at half a
// block's share so that no single hub makes the split infeasible.
CsrGraph part_graph(const Hypergraph& hg, std::span<const NodeID> vertices,
                    std::span<const NodeID> local, std::span<const BlockID> parts, BlockID part_id,
                    std::span<const Weight> second, BlockID ways, double epsilon,
                    double imbalance) {
  const std::size_t size = vertices.size();
  Weight second_total = 0;
  for (const NodeID u : vertices)
    second_total += second[u];
  const Weight cap = std::max<Weight>(1, second_total / (2 * static_cast<Weight>(ways)));
  second_total = 0;
  for (const NodeID u : vertices)
    second_total += std::min(second[u], cap);
  const double average = static_cast<double>(second_total) / static_cast<double>(size);
  const Weight offset = imbalance > epsilon && epsilon > 0
                            ? static_cast<Weight>(std::lround((imbalance / epsilon - 1) * average))
                            : 0;
  std::vector<EdgeID> offsets(size + 1, 0);
  std::vector<NodeID> adjacency;
  std::vector<Weight> weights(2 * size);
  for (std::size_t i = 0; i < size; ++i) {
    const NodeID u = vertices[i];
    for (const NodeID v : hg.pins(u))
      if (v != u && parts[v] == part_id)
        adjacency.push_back(local[v]);
    offsets[i + 1] = adjacency.size();
    weights[2 * i] = hg.vertex_weight(u, 0);
    weights[2 * i + 1] = std::min(second[u], cap) + offset;
  }
  return CsrGraph(std::move(offsets), std::move(adjacency), {}, 2, std::move(weights));
}

} // namespace

std::vector<Weight> incurred_volumes(const Hypergraph& hg, std::span<const BlockID> parts,
                                     BlockID num_parts, Weight scale) {
  const NodeID n = hg.num_nodes();
  std::vector<Weight> volume(n, 0);
  std::vector<NodeID> pins_in(num_parts, 0);
  std::vector<BlockID> touched;
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    touched.clear();
    for (const NodeID v : hg.pins(e))
      if (pins_in[parts[v]]++ == 0)
        touched.push_back(parts[v]);
    const BlockID owner_part = parts[e];
    volume[e] += scale * static_cast<Weight>(touched.size() - 1);
    for (const NodeID v : hg.pins(e))
      if (parts[v] != owner_part)
        volume[v] += scale / static_cast<Weight>(pins_in[parts[v]]) +
                     (scale % static_cast<Weight>(pins_in[parts[v]]) != 0 ? 1 : 0);
    for (const BlockID p : touched)
      pins_in[p] = 0;
  }
  return volume;
}

std::vector<BlockID> volume_bisection_partition(const Hypergraph& hg, const HgContext& ctx,
                                                const BlockLimits& limits, double volume_imbalance,
                                                std::uint64_t seed) {
  const NodeID n = hg.num_nodes();
  const BlockID k = limits.k;
  if (limits.ncon != 1 || hg.ncon() != 1 || hg.num_nets() != n || n < k || k == 0)
    return {};
  const int splits = count_splits(k);
  const double split_epsilon = std::pow(1 + ctx.epsilon, 1.0 / std::max(splits, 1)) - 1;
  // parts[u]: the first block of u's part, so that part ids stay below k at every depth.
  std::vector<BlockID> parts(n, 0);
  std::vector<Part> current = {{0, k}};
  std::vector<NodeID> local(n, 0);
  for (int depth = 0; depth < splits; ++depth) {
    std::vector<Weight> second;
    if (depth == 0) {
      second.resize(n);
      for (NodeID u = 0; u < n; ++u)
        second[u] = hg.node_degree(u);
    } else {
      second = incurred_volumes(hg, parts, k, kVolumeScale);
    }
    std::vector<std::vector<NodeID>> members(k);
    for (NodeID u = 0; u < n; ++u)
      members[parts[u]].push_back(u);
    std::vector<Part> next;
    for (const Part& part : current) {
      if (part.count == 1) {
        next.push_back(part);
        continue;
      }
      const BlockID ways = smallest_prime_factor(part.count);
      const BlockID share = part.count / ways;
      const std::vector<NodeID>& vertices = members[part.first];
      if (vertices.size() < ways)
        return {};
      for (std::size_t i = 0; i < vertices.size(); ++i)
        local[vertices[i]] = static_cast<NodeID>(i);
      const CsrGraph graph = part_graph(hg, vertices, local, parts, part.first, second, ways,
                                        split_epsilon, volume_imbalance);
      std::vector<BlockID> blocks;
      try {
        blocks = one_thread_graph_partition(
            graph, ways, split_epsilon,
            derive_seed(seed, 0xDB3, static_cast<std::uint64_t>(depth) * k + part.first));
      } catch (const InfeasibleBalance&) {
        return {};
      }
      for (std::size_t i = 0; i < vertices.size(); ++i)
        parts[vertices[i]] = part.first + blocks[i] * share;
      for (BlockID w = 0; w < ways; ++w)
        next.push_back({part.first + w * share, share});
    }
    current = std::move(next);
  }
  return parts;
}

} // namespace gnnpart::hg
