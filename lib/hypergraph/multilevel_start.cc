#include "hypergraph/multilevel_start.h"

#include "core/partition.h"
#include "core/random.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

// hg's nets with two constraints per vertex: its own weight and its degree.
Hypergraph with_degree_constraint(const Hypergraph& hg) {
  const NodeID n = hg.num_nodes();
  std::vector<Weight> weights(2 * static_cast<std::size_t>(n));
  for (NodeID u = 0; u < n; ++u) {
    weights[2 * static_cast<std::size_t>(u)] = hg.vertex_weight(u, 0);
    weights[2 * static_cast<std::size_t>(u) + 1] = hg.node_degree(u);
  }
  const auto offsets = hg.net_offsets();
  const auto pins = hg.pin_array();
  const auto net_weights = hg.net_weights();
  return Hypergraph(n, {offsets.begin(), offsets.end()}, {pins.begin(), pins.end()},
                    {net_weights.begin(), net_weights.end()}, 2, std::move(weights));
}

// limits' constraint, and the degree sum within degree_epsilon of its perfect share.
BlockLimits with_degree_limits(const BlockLimits& limits, Weight degree_total,
                               double degree_epsilon) {
  BlockLimits two;
  two.k = limits.k;
  two.ncon = 2;
  const Weight degree_max = max_block_weight(degree_total, limits.k, degree_epsilon);
  const Weight degree_perfect = (degree_total + limits.k - 1) / limits.k;
  for (BlockID b = 0; b < limits.k; ++b) {
    two.max_weight.push_back(limits.max(b, 0));
    two.max_weight.push_back(degree_max);
    two.perfect.push_back(limits.perfect_of(b, 0));
    two.perfect.push_back(degree_perfect);
  }
  return two;
}

} // namespace

std::vector<BlockID> degree_balanced_partition(const Hypergraph& hg, const HgContext& ctx,
                                               const BlockLimits& limits, double degree_epsilon,
                                               std::uint64_t seed) {
  const Hypergraph two = with_degree_constraint(hg);
  const BlockLimits two_limits =
      with_degree_limits(limits, static_cast<Weight>(hg.num_pins()), degree_epsilon);
  Km1GainCache cache;
  return multilevel_partition(two, ctx, two_limits, derive_seed(seed, 0xDB1), cache);
}

std::vector<BlockID> multilevel_start(const Hypergraph& hg, const HgContext& ctx,
                                      const BlockLimits& limits, double degree_epsilon,
                                      std::uint64_t seed) {
  if (limits.ncon != 1 || hg.ncon() != 1)
    return {};
  Km1GainCache cache;
  std::vector<BlockID> blocks =
      degree_epsilon > 0 ? degree_balanced_partition(hg, ctx, limits, degree_epsilon, seed)
                         : multilevel_partition(hg, ctx, limits, derive_seed(seed, 0xDB1), cache);
  HgContext vcycles = ctx;
  use_graph_start_flows(vcycles); // as the km1 run's V-cycles from its graph start
  graph_start_vcycles(hg, vcycles, limits, blocks, cache);
  PartitionedHypergraph phg(hg, limits.k);
  phg.assign(blocks);
  fill_empty_blocks(phg, ctx, limits.max_weight);
  if (!rebalance(phg, ctx, limits.max_weight))
    return {};
  return {phg.blocks().begin(), phg.blocks().end()};
}

} // namespace gnnpart::hg
