#include "partition/multilevel/multilevel.h"

#include <optional>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/deep_multilevel.h"

namespace gnnpart::ml {

namespace {

Hierarchy coarsen(const CsrGraph& graph, const CycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "coarsen");
  return coarsen(graph, in.limits.k, in.epsilon, in.ctx.coarsening, in.seed, in.fixed, in.start);
}

} // namespace

std::vector<BlockID> multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                          double epsilon, double fraction0,
                                          const MultilevelContext& ctx, std::uint64_t seed,
                                          std::span<const BlockID> fixed,
                                          std::span<const BlockID> start) {
  if (limits.k == 1 || graph.num_nodes() == 0)
    return std::vector<BlockID>(graph.num_nodes(), 0);
  if (ctx.initial.deep_min_k > 0 && limits.k > 2 && limits.k >= ctx.initial.deep_min_k &&
      fixed.empty() && start.empty())
    return deep_multilevel_partition(graph, limits, epsilon, ctx, seed);
  const CycleInput in{limits, epsilon, fraction0, ctx, seed, fixed, start};
  return uncoarsen(initial_partition(coarsen(graph, in), in), in);
}

std::vector<BlockID> uncoarsen(CoarsestPartition coarsest, const CycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "uncoarsen");
  Hierarchy& h = coarsest.hierarchy;
  const BlockID k = in.limits.k;
  const std::size_t levels = h.coarsest() + 1; // for the progress line (levels are freed)
  // METIS's projection: the refined level's boundary, projected, bounds the finer level's, so
  // that its gain cache and first seeds are found without reading every interior vertex's
  // neighbours (none at the coarsest level, whose partition comes from elsewhere).
  std::optional<std::vector<std::uint8_t>> boundary;
  std::optional<std::vector<NodeID>> superset;
  return uncoarsen_levels(
      h.coarsest(), std::move(coarsest.blocks),
      [&](std::size_t level, std::vector<BlockID> blocks) {
        report_level(in.ctx.timer, levels - level, levels, h.graph(level).num_nodes());
        PartitionedGraph p(h.graph(level), k, std::move(blocks));
        p.fix(h.fixed(level));
        refine_level(p, in.limits, in.ctx, derive_seed(in.seed, 60, level), std::move(superset),
                     level > 0 ? &boundary : nullptr);
        superset.reset();
        return p.take_blocks();
      },
      [&](std::size_t level, std::vector<BlockID> blocks) {
        if (boundary)
          superset = project_flags(h, level, *boundary);
        boundary.reset();
        return project_and_free(h, level, blocks);
      });
}

} // namespace gnnpart::ml
