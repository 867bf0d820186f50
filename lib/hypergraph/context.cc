#include "hypergraph/context.h"

namespace gnnpart {

HgContext make_context(const PartitionOptions& options) {
  HgContext ctx;
  ctx.k = options.k;
  ctx.epsilon = options.epsilon;
  ctx.seed = options.seed;
  ctx.objective = options.objective == Objective::kVolume ? Objective::kKm1 : options.objective;
  switch (options.preset) {
  case Preset::kFast:
    ctx.initial.runs_per_algorithm = 2;
    ctx.initial.deep_runs_per_algorithm = 1;
    ctx.refinement.graph_start_vcycles = 0;
    ctx.refinement.fm_rounds = 3;
    ctx.refinement.relaxed_fm_slack = 0;
    ctx.refinement.flows.enabled = false;
    ctx.bisection_runs = 1;
    break;
  case Preset::kStrong:
    ctx.initial.runs_per_algorithm = 16;
    ctx.initial.deep_runs_per_algorithm = 16;
    ctx.initial.fm_rounds = 6;
    ctx.initial.fm_max_bad_fraction = 1.0;
    ctx.refinement.vcycles = 2;
    // More V-cycles, not longer FM searches: with 20 rounds and 1000 moves without gain the
    // column-net model came out 1.2% worse (6 graphs x k in {8, 32}).
    ctx.refinement.graph_start_vcycles = 4;
    ctx.refinement.lp_rounds = 5;
    ctx.coarsening.sub_rounds = 32;
    ctx.refinement.flows.on_graph_start = true;
    break;
  case Preset::kDefault:
    break;
  }
  if (options.flows != FlowRefinement::kPreset)
    ctx.refinement.flows.enabled = ctx.refinement.flows.on_graph_start =
        options.flows == FlowRefinement::kOn;
  return ctx;
}

} // namespace gnnpart
