#include "hypergraph/hypergraph_partitioner.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"

namespace gnnpart {

namespace {

void check_feasible(const Hypergraph& hg, const BlockLimits& limits) {
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    for (int c = 0; c < hg.ncon(); ++c)
      if (hg.vertex_weight(u, c) > limits.max_of(0, c))
        throw InfeasibleBalance(
            fmt::format("vertex {} weighs {} in constraint {}, more than a block may carry ({})", u,
                        hg.vertex_weight(u, c), c, limits.max_of(0, c)));
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    for (int c = 0; c < hg.ncon(); ++c)
      if (hg.vertex_weight(u, c) < 0)
        throw InvalidParameter(fmt::format("vertex {} has a negative weight", u));
}

} // namespace

Partition partition_hypergraph(const Hypergraph& hypergraph, const PartitionOptions& options) {
  check_options(options, hypergraph.num_nodes());
  const HgContext ctx = make_context(options);
  const NodeID n = hypergraph.num_nodes();
  Partition result;
  result.k = options.k;
  if (n == 0)
    return result;
  const BlockLimits limits = uniform_limits(hypergraph, options.k, options.epsilon);
  check_feasible(hypergraph, limits);
  if (options.k == 1) {
    result.blocks.assign(n, 0);
    return result;
  }
  run_with_threads(options.threads, [&] {
    std::vector<BlockID> blocks = multilevel_partition(hypergraph, ctx, limits, ctx.seed);
    for (int v = 0; v < ctx.refinement.vcycles; ++v)
      blocks = vcycle(hypergraph, ctx, limits, std::move(blocks), derive_seed(ctx.seed, 0x5C, v));
    PartitionedHypergraph phg(hypergraph, options.k);
    phg.assign(blocks);
    fill_empty_blocks(phg, ctx, limits.max);
    if (!rebalance(phg, ctx, limits.max))
      throw InfeasibleBalance(
          fmt::format("could not balance {} blocks within epsilon = {} (max block weight {})",
                      options.k, options.epsilon, limits.max_of(0, 0)));
    result.blocks.assign(phg.blocks().begin(), phg.blocks().end());
  });
  options.logger.info("hypergraph partition: n = {}, nets = {}, k = {}, {} = {}", n,
                      hypergraph.num_nets(), options.k, to_string(ctx.objective),
                      hypergraph_objective(hypergraph, result, ctx.objective));
  return result;
}

Weight hypergraph_objective(const Hypergraph& hypergraph, const Partition& partition,
                            Objective objective) {
  check_partition(partition, hypergraph.num_nodes());
  PartitionedHypergraph phg(hypergraph, partition.k);
  phg.assign(partition.blocks);
  return phg.objective(objective == Objective::kVolume ? Objective::kKm1 : objective);
}

} // namespace gnnpart
