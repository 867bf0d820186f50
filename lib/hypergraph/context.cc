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
    ctx.refinement.fm_rounds = 3;
    ctx.refinement.fm_max_moves_without_improvement = 100;
    break;
  case Preset::kStrong:
    ctx.initial.runs_per_algorithm = 16;
    ctx.initial.deep_runs_per_algorithm = 16;
    ctx.initial.fm_rounds = 6;
    ctx.initial.fm_max_bad_fraction = 1.0;
    ctx.refinement.vcycles = 2;
    ctx.refinement.lp_rounds = 5;
    ctx.refinement.fm_rounds = 20;
    ctx.refinement.fm_max_moves_without_improvement = 1000;
    ctx.coarsening.sub_rounds = 32;
    break;
  case Preset::kDefault:
    break;
  }
  return ctx;
}

} // namespace gnnpart
