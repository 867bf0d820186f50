#include "hypergraph/context.h"

#include "core/multilevel_steps.h"

// A preset names only what differs from the defaults in context.h.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace gnnpart::hg {

namespace {

const HgContext kFast{
    .bisection_runs = 1,
    .graph_start_tries = 1,
    .coarsening = {.stalled_deep_multiplier = 0},
    .initial = {.runs_per_algorithm = 2, .deep_runs_per_algorithm = 1},
    .refinement = {.graph_start_vcycles = 0,
                   .fm_rounds = 3,
                   .relaxed_fm_slack = 0,
                   .flows = {.enabled = false,
                             .graph_start_flows_max_k = 0,
                             .graph_start_flows_max_volume_per_vertex = 0}},
    .bottleneck = {.degree_graph_epsilons = {}}, // the km1 start's chain alone
};

const HgContext kDefault{};

const HgContext kStrong{
    .coarsening = {.sub_rounds = 32},
    .initial = {.runs_per_algorithm = 16,
                .deep_runs_per_algorithm = 16,
                .fm_rounds = 6,
                .fm_max_bad_fraction = 1.0},
    // More V-cycles, not longer FM searches: with 20 rounds and 1000 moves without gain the
    // column-net model came out 1.2% worse (6 graphs x k in {8, 32}).
    .refinement = {.vcycles = 2,
                   .graph_start_vcycles = 4,
                   .lp_rounds = 5,
                   .flows = {.on_graph_start = true}},
    .bottleneck = {.multilevel_start = true,
                   .degree_start_epsilon = 0.1,
                   .volume_bisection_epsilons = {0.1, 0.25, 0.5}},
};

} // namespace

HgContext make_context(const PartitionOptions& options) {
  HgContext ctx = context_for_run(select_preset(options.preset, kFast, kDefault, kStrong), options);
  if (ctx.objective == Objective::kVolume) // the column-net model's km1 is the volume
    ctx.objective = Objective::kKm1;
  if (options.flows != FlowRefinement::kPreset) {
    FlowContext& flows = ctx.refinement.flows;
    flows.enabled = flows.on_graph_start = options.flows == FlowRefinement::kOn;
    if (options.flows == FlowRefinement::kOff) {
      flows.graph_start_flows_max_k = 0;
      flows.graph_start_flows_max_volume_per_vertex = 0;
    }
  }
  return ctx;
}

} // namespace gnnpart::hg
