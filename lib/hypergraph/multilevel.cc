#include "hypergraph/multilevel.h"

#include <algorithm>

#include "core/metrics.h"
#include "core/multilevel_steps.h"
#include "core/random.h"
#include "hypergraph/initial_bisection.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

// Whether the coarsening of a run from scratch ended above its vertex limit (its last pass
// shrank by less than min_shrink_per_pass: the clusters' weights, not the limit, held it) on a
// level small enough in pins for a deeper start to be worth its cost.
bool deepen(const Hypergraph& hg, const HgHierarchy& h, const HgCycleInput& in) {
  const CoarseningContext& c = in.ctx.coarsening;
  const Hypergraph& coarsest = h.level(h.coarsest());
  return c.stalled_deep_multiplier > 0 && !in.given &&
         coarsest.num_nodes() > c.contraction_limit_multiplier * in.limits.k &&
         static_cast<double>(coarsest.num_pins()) <=
             c.stalled_deep_max_pin_share * static_cast<double>(hg.num_pins());
}

// The context uncoarsen refines `level` with: the run's on the input level, and without flows
// above it where flows run on the input level only.
HgContext level_context(const HgContext& ctx, std::size_t level) {
  HgContext local = ctx;
  if (level > 0 && ctx.refinement.flows.input_level_only)
    local.refinement.flows.enabled = false;
  return local;
}

// The lower-objective start on the stalled coarsest level: the initial partition of that level,
// or the deeper start (deeper_start: the best of stalled_deep_runs deeper multilevel runs,
// brought back up to it), compared after refinement there. The first wins refined: the
// refinement uncoarsen would give it (same context, same seed) is done, and uncoarsen skips
// that level. The deeper one goes on as its run left it, and uncoarsen refines it once more.
HgCoarsestPartition deeper_start_if_better(HgCoarsestPartition start, const HgCycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "deeper start");
  const std::size_t level = start.hierarchy.coarsest();
  const Hypergraph& coarsest = start.hierarchy.level(level);
  PartitionedHypergraph own(coarsest, in.limits.k);
  own.assign(start.blocks);
  refine_level(own, level_context(in.ctx, level), in.limits, derive_seed(in.seed, 0xF0, level),
               in.cache);

  std::vector<BlockID> blocks = deeper_start(coarsest, in.ctx, in.limits, in.seed);
  if (!blocks.empty()) {
    PartitionedHypergraph deeper(coarsest, in.limits.k);
    deeper.assign(blocks);
    if (!is_balanced(own, in.limits.max_weight) ||
        deeper.objective(in.ctx.objective) < own.objective(in.ctx.objective)) {
      start.blocks = std::move(blocks);
      return start;
    }
  }
  start.blocks.assign(own.blocks().begin(), own.blocks().end());
  start.refined = true;
  return start;
}

// `given`: a V-cycle's partition (empty: none), taken so that it is not kept through the cycle.
std::vector<BlockID> multilevel_cycle(const Hypergraph& hg, const HgCycleInput& in,
                                      std::vector<BlockID> given) {
  if (in.limits.k == 1 || hg.num_nodes() == 0)
    return std::vector<BlockID>(hg.num_nodes(), 0);
  HgHierarchy hierarchy = coarsen(hg, in.ctx, in.limits, in.seed, std::move(given));
  const bool deeper = deepen(hg, hierarchy, in);
  HgCoarsestPartition start = initial_partition(std::move(hierarchy), in);
  if (deeper)
    start = deeper_start_if_better(std::move(start), in);
  std::vector<BlockID> blocks = uncoarsen(std::move(start), in);
  in.cache.release(); // alive only while the levels are refined
  return blocks;
}

} // namespace

std::vector<BlockID> deeper_start(const Hypergraph& stalled, const HgContext& ctx,
                                  const BlockLimits& limits, std::uint64_t seed) {
  HgContext deep = ctx;
  deep.coarsening.contraction_limit_multiplier = ctx.coarsening.stalled_deep_multiplier;
  deep.coarsening.stalled_deep_multiplier = 0;
  deep.timer = nullptr;
  deep.parkable_input = nullptr;
  std::vector<BlockID> best;
  Weight best_objective = 0;
  for (int r = 0; r < std::max(1, ctx.coarsening.stalled_deep_runs); ++r) {
    Km1GainCache cache;
    std::vector<BlockID> blocks = multilevel_partition(
        stalled, deep, limits, derive_seed(seed, 0xD5, static_cast<std::uint64_t>(r)), cache);
    PartitionedHypergraph phg(stalled, limits.k);
    phg.assign(blocks);
    if (!is_balanced(phg, limits.max_weight))
      continue;
    const Weight objective = phg.objective(ctx.objective);
    if (best.empty() || objective < best_objective) {
      best = std::move(blocks);
      best_objective = objective;
    }
  }
  return best;
}

HgCoarsestPartition initial_partition(HgHierarchy hierarchy, const HgCycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "initial partition");
  const Hypergraph& coarsest = hierarchy.level(hierarchy.coarsest());
  std::vector<BlockID> blocks =
      !hierarchy.communities.empty() ? std::move(hierarchy.communities)
      : in.limits.k == 2
          ? flat_bisection(coarsest, in.ctx, in.limits, derive_seed(in.seed, 0x1F))
          : recursive_bipartition(coarsest, in.ctx, in.limits, derive_seed(in.seed, 0x1F));
  return {std::move(hierarchy), std::move(blocks)};
}

std::vector<BlockID> uncoarsen(HgCoarsestPartition coarsest, const HgCycleInput& in) {
  const auto phase = scoped_phase(in.ctx.timer, "uncoarsen");
  HgHierarchy& h = coarsest.hierarchy;
  const HgContext coarse_ctx = level_context(in.ctx, 1); // the levels above the input
  const std::size_t top = h.coarsest();
  const bool top_refined = coarsest.refined;
  const std::size_t levels = top + 1; // for the progress line (levels are freed)
  NodeID coarser_nodes = 0;           // of the level refined last
  return uncoarsen_levels(
      h.coarsest(), std::move(coarsest.blocks),
      [&](std::size_t level, std::vector<BlockID> blocks) {
        const Hypergraph& hg = h.unpark(level);
        const double growth = coarser_nodes == 0 ? 0.0
                                                 : static_cast<double>(hg.num_nodes()) /
                                                       static_cast<double>(coarser_nodes);
        coarser_nodes = hg.num_nodes();
        report_level(in.ctx.timer, levels - level, levels, hg.num_nodes());
        const auto level_phase =
            scoped_phase(in.ctx.timer, level == 0 ? "input level" : "coarse levels");
        if (level == top && top_refined)
          return blocks;
        PartitionedHypergraph phg(hg, in.limits.k);
        phg.assign(blocks);
        std::vector<BlockID>().swap(blocks); // phg holds them while the level is refined
        const double finer_growth = level == 0 ? 0.0
                                               : static_cast<double>(h.maps[level - 1].size()) /
                                                     static_cast<double>(hg.num_nodes());
        refine_level(phg, level == 0 ? in.ctx : coarse_ctx, in.limits,
                     derive_seed(in.seed, 0xF0, level), in.cache, growth, finer_growth);
        return std::vector<BlockID>(phg.blocks().begin(), phg.blocks().end());
      },
      [&](std::size_t level, std::vector<BlockID> blocks) {
        std::vector<BlockID> finer = h.maps[level - 1].project(blocks);
        h.truncate(level - 1); // the coarser levels and their maps are done with
        return finer;
      });
}

std::vector<BlockID> multilevel_partition(const Hypergraph& hg, const HgContext& ctx,
                                          const BlockLimits& limits, std::uint64_t seed,
                                          Km1GainCache& cache) {
  return multilevel_cycle(hg, {ctx, limits, seed, false, cache}, {});
}

std::vector<BlockID> vcycle(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                            std::vector<BlockID> blocks, std::uint64_t seed, Km1GainCache& cache) {
  HgContext local = ctx;
  local.refinement.lp_rounds = ctx.refinement.vcycle_lp_rounds;
  return multilevel_cycle(hg, {local, limits, seed, true, cache}, std::move(blocks));
}

double net_size_skew(const Hypergraph& hg) {
  double squares = 0;
  for (NetID e = 0; e < hg.num_nets(); ++e)
    squares += static_cast<double>(hg.net_size(e)) * static_cast<double>(hg.net_size(e));
  const auto pins = static_cast<double>(hg.num_pins());
  return pins == 0 ? 1.0 : squares * static_cast<double>(hg.num_nets()) / (pins * pins);
}

void use_graph_start_flows(HgContext& ctx) {
  use_graph_start_flows(ctx, Hypergraph{}, {});
}

void use_graph_start_flows(HgContext& ctx, const Hypergraph& hg, std::span<const BlockID> start) {
  FlowContext& flows = ctx.refinement.flows;
  // At k > 2 (k = 2 is graph_start_flows_max_k's): a thin separator, the start's volume per
  // vertex at most graph_start_flows_max_volume_per_vertex, among nets of about even sizes, the
  // pin-weighted mean net size at most graph_start_flows_max_net_size_skew times the mean.
  bool thin = false;
  if (!start.empty() && !flows.on_graph_start && ctx.k > 2 &&
      ctx.k > flows.graph_start_flows_max_k && flows.graph_start_flows_max_volume_per_vertex > 0 &&
      net_size_skew(hg) <= flows.graph_start_flows_max_net_size_skew)
    thin = static_cast<double>(
               compute_hypergraph_metrics(hg, Partition{ctx.k, {start.begin(), start.end()}}).km1) <=
           flows.graph_start_flows_max_volume_per_vertex * static_cast<double>(hg.num_nodes());
  flows.input_level_only =
      !flows.on_graph_start && (ctx.k <= flows.graph_start_flows_max_k || thin);
  flows.enabled = flows.on_graph_start || flows.input_level_only;
  if (flows.input_level_only)
    flows.max_rounds = flows.graph_start_flow_rounds;
  flows.alpha = flows.graph_start_alpha;
}

int graph_start_vcycles(const Hypergraph& hg, const HgContext& ctx, const BlockLimits& limits,
                        std::vector<BlockID>& blocks, Km1GainCache& cache) {
  const RefinementContext& rc = ctx.refinement;
  // From the blocks alone (one pass over the pins), not from a partitioned hypergraph's counts
  // (1.6% of wing k = 32's instructions for the two calls).
  auto objective = [&] {
    const HypergraphMetrics m =
        compute_hypergraph_metrics(hg, Partition{limits.k, {blocks.begin(), blocks.end()}});
    return static_cast<double>(ctx.objective == Objective::kCut    ? m.cut
                               : ctx.objective == Objective::kSoed ? m.soed
                                                                   : m.km1);
  };
  int vcycles = rc.graph_start_vcycles;
  double before = -1; // objective before the current V-cycle, once needed
  for (int v = 0; v < vcycles; ++v) {
    const bool may_extend = v + 1 == vcycles && vcycles < rc.graph_start_max_vcycles;
    if (may_extend && before < 0)
      before = objective();
    const auto phase = scoped_phase(ctx.timer, "v-cycle");
    const std::uint64_t work_before = cache.work();
    HgContext cycle_ctx = ctx;
    if (v >= rc.graph_start_vcycles) // an extra cycle (extra_vcycle_relaxed_fm_deciding_round)
      cycle_ctx.refinement.relaxed_fm_deciding_round = rc.extra_vcycle_relaxed_fm_deciding_round;
    blocks =
        vcycle(hg, cycle_ctx, limits, std::move(blocks), derive_seed(ctx.seed, 0x5C, v), cache);
    if (!may_extend)
      continue;
    const double after = objective();
    // Pins the cycle's refinement updated and re-rated, per input pin (the same for any thread
    // count: FM is sequential).
    const double work = static_cast<double>(cache.work() - work_before) /
                        static_cast<double>(std::max<EdgeID>(hg.num_pins(), 1));
    if (before >= rc.graph_start_extra_vcycle_factor * after &&
        work <= rc.graph_start_extra_vcycle_max_work)
      ++vcycles;
    before = after;
  }
  return vcycles;
}

} // namespace gnnpart::hg
