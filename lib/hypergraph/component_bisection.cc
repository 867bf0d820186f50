#include "hypergraph/component_bisection.h"

#include <algorithm>
#include <numeric>

#include "core/random.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph/subhypergraph.h"

namespace gnnpart::hg {

namespace {

NodeID find_root(std::vector<NodeID>& parent, NodeID u) {
  while (parent[u] != u) {
    parent[u] = parent[parent[u]]; // path halving
    u = parent[u];
  }
  return u;
}

} // namespace

std::vector<NodeID> hypergraph_components(const Hypergraph& hg, NodeID* count) {
  const NodeID n = hg.num_nodes();
  std::vector<NodeID> parent(n);
  std::iota(parent.begin(), parent.end(), NodeID{0});
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    const auto pins = hg.pins(e);
    if (pins.empty())
      continue;
    NodeID root = find_root(parent, pins[0]);
    for (NodeID v : pins.subspan(1)) {
      NodeID other = find_root(parent, v);
      if (other == root)
        continue;
      // The smaller vertex id is the root: roots are each component's smallest vertex.
      if (other < root)
        std::swap(root, other);
      parent[other] = root;
    }
  }
  // Roots are the smallest vertex of their component, so numbering them in vertex order
  // numbers components by smallest vertex.
  std::vector<NodeID> component(n);
  NodeID next = 0;
  for (NodeID u = 0; u < n; ++u) {
    const NodeID root = find_root(parent, u);
    component[u] = root == u ? next++ : component[root];
  }
  *count = next;
  return component;
}

std::vector<BlockID> component_bisection(const Hypergraph& hg, const HgContext& ctx,
                                         const BlockLimits& limits, std::uint64_t seed,
                                         Km1GainCache& cache) {
  if (limits.k != 2 || hg.ncon() != 1 || hg.num_nodes() == 0)
    return {};
  NodeID count = 0;
  const std::vector<NodeID> component = hypergraph_components(hg, &count);
  if (count < 2)
    return {};
  std::vector<Weight> weight(count, 0);
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    weight[component[u]] += hg.vertex_weight(u);
  const auto giant = static_cast<NodeID>(std::max_element(weight.begin(), weight.end()) -
                                         weight.begin()); // the first among equals
  const Weight total = std::accumulate(weight.begin(), weight.end(), Weight{0});
  const Weight filler = total - weight[giant];
  if (static_cast<double>(filler) < ctx.epsilon * static_cast<double>(total))
    return {};

  // The largest component alone, each side allowed up to its block's limit.
  std::vector<BlockID> in_giant(hg.num_nodes());
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    in_giant[u] = component[u] == giant ? 0 : 1;
  SubHypergraph sub = extract_block(hg, in_giant, 0, ctx.objective);
  BlockLimits relaxed;
  relaxed.k = 2;
  relaxed.ncon = 1;
  relaxed.max_weight = {limits.max(0, 0), limits.max(1, 0)};
  // Initial bisections grow block 0 to its perfect weight: run r aims at the r-th of `runs`
  // ratios from half the largest component down to the least block 0 may take.
  const Weight least = std::max<Weight>(0, weight[giant] - relaxed.max_weight[1]);
  const Weight half = (weight[giant] + 1) / 2;
  std::vector<BlockID> sides;
  Weight best = 0;
  const int runs = std::max(1, ctx.bisection_runs);
  for (int r = 0; r < runs; ++r) {
    const Weight target = half - (half - std::min(least, half)) * r / std::max(1, runs - 1);
    relaxed.perfect = {target, weight[giant] - target};
    std::vector<BlockID> candidate =
        multilevel_partition(sub.hypergraph, ctx, relaxed, derive_seed(seed, 0xC0, r), cache);
    PartitionedHypergraph phg(sub.hypergraph, 2);
    phg.assign(candidate);
    if (!is_balanced(phg, relaxed.max_weight))
      continue;
    const Weight objective = phg.objective(ctx.objective);
    if (sides.empty() || objective < best) {
      sides = std::move(candidate);
      best = objective;
    }
  }
  if (sides.empty())
    return {};

  std::vector<BlockID> blocks(hg.num_nodes(), kInvalidBlockID);
  Weight load[2] = {0, 0};
  for (NodeID v = 0; v < sub.original.size(); ++v) {
    blocks[sub.original[v]] = sides[v];
    load[sides[v]] += hg.vertex_weight(sub.original[v]);
  }
  // The other components, heaviest first (then by number), each to the side with more room.
  std::vector<NodeID> order;
  order.reserve(count - 1);
  for (NodeID c = 0; c < count; ++c)
    if (c != giant)
      order.push_back(c);
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeID a, NodeID b) { return weight[a] > weight[b]; });
  std::vector<BlockID> side_of(count, kInvalidBlockID);
  for (NodeID c : order) {
    const Weight room0 = limits.max(0, 0) - load[0];
    const Weight room1 = limits.max(1, 0) - load[1];
    const BlockID s = room1 > room0 ? 1 : 0;
    if (weight[c] > std::max(room0, room1))
      return {};
    side_of[c] = s;
    load[s] += weight[c];
  }
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    if (blocks[u] == kInvalidBlockID)
      blocks[u] = side_of[component[u]];
  return blocks;
}

} // namespace gnnpart::hg
