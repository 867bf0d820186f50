// Entry point of the own multilevel graph partitioner.
#include <fmt/format.h>

#include "core/errors.h"
#include "core/multilevel_steps.h"
#include "core/parallel.h"
#include "core/random.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/multilevel.h"
#include "partition/multilevel/multilevel_partitioner.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/rebalancer.h"
#include "partition/multilevel/refinement/volume_refiner.h"
#include "partition/partitioner.h"

namespace gnnpart {

Partition partition_graph_multilevel(const CsrGraph& graph, const PartitionOptions& options,
                                     std::span<const BlockID> fixed) {
  return partition_graph_multilevel(graph, options, ml::create_context(options), fixed);
}

Partition partition_graph_multilevel(const CsrGraph& graph, const PartitionOptions& options,
                                     ml::MultilevelContext run_ctx,
                                     std::span<const BlockID> fixed) {
  const NodeID n = graph.num_nodes();
  check_options(options, n);
  if (!fixed.empty()) {
    if (fixed.size() != n)
      throw InvalidParameter(
          fmt::format("multilevel: {} fixed entries for {} vertices", fixed.size(), n));
    for (const BlockID b : fixed)
      if (b != kInvalidBlockID && b >= options.k)
        throw InvalidParameter(
            fmt::format("multilevel: vertex fixed to block {} >= k = {}", b, options.k));
  }
  if (options.objective != Objective::kCut && options.objective != Objective::kVolume)
    throw Unsupported(
        fmt::format("the multilevel graph partitioner optimizes cut or volume, not {}",
                    to_string(options.objective)));
  Partition result;
  result.k = options.k;
  if (n == 0 || options.k == 1) {
    result.blocks.assign(n, 0);
    return result;
  }
  check_balance_feasible(graph, options.k, options.epsilon);
  // Decided on the input, so that the bisections of the coarsest graph coarsen the same way.
  run_ctx.coarsening.algorithm = ml::resolve_clustering(graph, run_ctx.coarsening);
  Timer timer; // the phases, printed as a tree under -v
  if (options.logger.enabled(LogLevel::kInfo) || options.progress != nullptr)
    run_ctx.timer = &timer;
  timer.report_to(options.progress);
  const ml::MultilevelContext& ctx = run_ctx;
  const BlockLimits limits = uniform_limits(graph, options.k, options.epsilon);

  result.blocks = run_with_threads(options.threads, [&] {
    std::vector<BlockID> blocks = repeat_vcycles(
        ml::multilevel_partition(graph, limits, options.epsilon, 0.5, ctx, options.seed, fixed),
        ctx.vcycles, [&](std::vector<BlockID> start, int v) {
          const auto phase = scoped_phase(ctx.timer, "v-cycle");
          return ml::multilevel_partition(graph, limits, options.epsilon, 0.5, ctx,
                                          derive_seed(options.seed, 80, v), fixed, start);
        });
    ml::PartitionedGraph p(graph, options.k, std::move(blocks));
    p.fix(fixed);
    if (options.objective == Objective::kVolume) {
      const auto phase = scoped_phase(ctx.timer, "volume refinement");
      const Weight gain =
          ml::volume_refine(p, limits, ctx.refinement.volume_passes, derive_seed(options.seed, 90));
      options.logger.debug("multilevel: volume refinement gained {}", gain);
    }
    if (!p.balanced(limits) && !ml::rebalance(p, limits))
      throw InfeasibleBalance(fmt::format(
          "multilevel: could not bring every block within the bound for k = {}, epsilon = {}",
          options.k, options.epsilon));
    ml::fill_empty_blocks(p, limits);
    return p.take_blocks();
  });
  if (ctx.timer != nullptr)
    log_phases(options.logger, timer);
  return result;
}

} // namespace gnnpart
