#include "hypergraph/multilevel_start.h"

#include <cmath>

#include "core/graph.h"
#include "core/partition.h"
#include "core/random.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph/volume_bisection.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/multilevel_partitioner.h"

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

// The graph behind a column-net model (net e = {e} and e's neighbours): e's neighbours are its
// net's other pins. Two constraints per vertex: its weight, and its degree in hg plus `offset`.
CsrGraph graph_with_degree_constraint(const Hypergraph& hg, Weight offset) {
  const NodeID n = hg.num_nodes();
  std::vector<EdgeID> offsets(static_cast<std::size_t>(n) + 1, 0);
  std::vector<NodeID> adjacency;
  adjacency.reserve(hg.num_pins());
  std::vector<Weight> weights(2 * static_cast<std::size_t>(n));
  for (NodeID u = 0; u < n; ++u) {
    for (const NodeID v : hg.pins(u))
      if (v != u)
        adjacency.push_back(v);
    offsets[u + 1] = adjacency.size();
    weights[2 * static_cast<std::size_t>(u)] = hg.vertex_weight(u, 0);
    weights[2 * static_cast<std::size_t>(u) + 1] = hg.node_degree(u) + offset;
  }
  return CsrGraph(std::move(offsets), std::move(adjacency), {}, 2, std::move(weights));
}

// km1 V-cycles from `blocks` as from the km1 run's graph start, then no empty block and the
// balance of `limits` (empty if it cannot be restored).
std::vector<BlockID> refined_start(const Hypergraph& hg, const HgContext& ctx,
                                   const BlockLimits& limits, std::vector<BlockID> blocks,
                                   Km1GainCache& cache) {
  HgContext vcycles = ctx;
  // As the km1 run's V-cycles from its graph start, the thin-separator rule read on `blocks`.
  use_graph_start_flows(vcycles, hg, blocks);
  graph_start_vcycles(hg, vcycles, limits, blocks, cache);
  PartitionedHypergraph phg(hg, limits.k);
  phg.assign(blocks);
  fill_empty_blocks(phg, ctx, limits.max_weight);
  if (!rebalance(phg, ctx, limits.max_weight))
    return {};
  return {phg.blocks().begin(), phg.blocks().end()};
}

// refined_start with a gain cache of its own; empty when the start partitioner gave up.
std::vector<BlockID> refined_start_unless_empty(const Hypergraph& hg, const HgContext& ctx,
                                                const BlockLimits& limits,
                                                std::vector<BlockID> blocks) {
  if (blocks.empty())
    return {};
  Km1GainCache cache;
  return refined_start(hg, ctx, limits, std::move(blocks), cache);
}

} // namespace

Weight degree_offset(const Hypergraph& hg, double epsilon, double degree_epsilon) {
  if (hg.num_nodes() == 0 || epsilon <= 0 || degree_epsilon <= epsilon)
    return 0;
  const double average_degree =
      static_cast<double>(hg.num_pins()) / static_cast<double>(hg.num_nodes());
  return static_cast<Weight>(std::lround((degree_epsilon / epsilon - 1) * average_degree));
}

std::vector<BlockID> degree_balanced_graph_partition(const Hypergraph& hg, const HgContext& ctx,
                                                     const BlockLimits& limits,
                                                     double degree_epsilon, std::uint64_t seed) {
  if (limits.ncon != 1 || hg.ncon() != 1 || hg.num_nets() != hg.num_nodes() || hg.num_nodes() == 0)
    return {};
  const CsrGraph graph =
      graph_with_degree_constraint(hg, degree_offset(hg, ctx.epsilon, degree_epsilon));
  // One thread: the refiner's result must not depend on the thread count (the start costs a
  // graph partition, a fraction of the refiner's time).
  return one_thread_graph_partition(graph, limits.k, ctx.epsilon, derive_seed(seed, 0xDB2));
}

std::vector<BlockID> one_thread_graph_partition(const CsrGraph& graph, BlockID k, double epsilon,
                                                std::uint64_t seed) {
  PartitionOptions options;
  options.k = k;
  options.epsilon = epsilon;
  options.seed = seed;
  options.threads = 1;
  options.model = Model::kGraph;
  options.objective = Objective::kCut;
  options.preset = Preset::kDefault;
  ml::MultilevelContext graph_ctx = ml::create_context(options);
  graph_ctx.initial.peripheral_sweeps = 0;        // as the km1 run's graph start
  graph_ctx.refinement.relaxed_fm_greedy = false; // measured for the edge cut only (session 25)
  return partition_graph_multilevel(graph, options, std::move(graph_ctx)).blocks;
}

std::vector<BlockID> degree_graph_start(const Hypergraph& hg, const HgContext& ctx,
                                        const BlockLimits& limits, double degree_epsilon,
                                        std::uint64_t seed) {
  std::vector<BlockID> blocks =
      degree_balanced_graph_partition(hg, ctx, limits, degree_epsilon, seed);
  return refined_start_unless_empty(hg, ctx, limits, std::move(blocks));
}

std::vector<BlockID> volume_bisection_start(const Hypergraph& hg, const HgContext& ctx,
                                            const BlockLimits& limits, double volume_imbalance,
                                            std::uint64_t seed) {
  std::vector<BlockID> blocks = volume_bisection_partition(hg, ctx, limits, volume_imbalance, seed);
  return refined_start_unless_empty(hg, ctx, limits, std::move(blocks));
}

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
  return refined_start(hg, ctx, limits, std::move(blocks), cache);
}

} // namespace gnnpart::hg
