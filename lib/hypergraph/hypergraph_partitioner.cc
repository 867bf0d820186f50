#include "hypergraph/hypergraph_partitioner.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/metrics.h"
#include "core/multilevel_steps.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/block_volumes.h"
#include "hypergraph/bottleneck_refiner.h"
#include "hypergraph/column_net.h"
#include "hypergraph/column_net_in_place.h"
#include "hypergraph/context.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "partition/multilevel/multilevel_partitioner.h"
#include "partition/partitioner.h"

namespace gnnpart {

using namespace hg; // the engine behind the public functions

namespace {

// A graph or a hypergraph: every vertex fits into a block, and no weight is negative.
template <typename Weighted> void check_feasible(const Weighted& hg, const BlockLimits& limits) {
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    for (int c = 0; c < hg.ncon(); ++c)
      if (hg.vertex_weight(u, c) > limits.max(0, c))
        throw InfeasibleBalance(
            fmt::format("vertex {} weighs {} in constraint {}, more than a block may carry ({})", u,
                        hg.vertex_weight(u, c), c, limits.max(0, c)));
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    for (int c = 0; c < hg.ncon(); ++c)
      if (hg.vertex_weight(u, c) < 0)
        throw InvalidParameter(fmt::format("vertex {} has a negative weight", u));
}

// Whether `blocks` leaves a block empty or over its limit: only then do the final repairs
// (fill_empty_blocks, rebalance) have work, and need the partition's pin counts (a recount of
// every net: 0.8% of wing k = 32's instructions).
bool needs_repair(const Hypergraph& hg, std::span<const BlockID> blocks,
                  const BlockLimits& limits) {
  const int ncon = hg.ncon();
  std::vector<NodeID> sizes(limits.k, 0);
  std::vector<Weight> weights(static_cast<std::size_t>(limits.k) * ncon, 0);
  for (NodeID u = 0; u < hg.num_nodes(); ++u) {
    ++sizes[blocks[u]];
    for (int c = 0; c < ncon; ++c)
      weights[static_cast<std::size_t>(blocks[u]) * ncon + c] += hg.vertex_weight(u, c);
  }
  for (BlockID b = 0; b < limits.k; ++b)
    if (sizes[b] == 0)
      return true;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (weights[i] > limits.max_weight[i])
      return true;
  return false;
}

// Several multilevel runs when k = 2 (ctx.bisection_runs), else one; the first run uses the
// context's seed. The best balanced result by the objective is kept (the first among equals).
std::vector<BlockID> best_of_runs(const Hypergraph& hg, const HgContext& ctx,
                                  const BlockLimits& limits, Km1GainCache& cache) {
  const int runs = ctx.k == 2 ? std::max(1, ctx.bisection_runs) : 1;
  std::vector<BlockID> best;
  bool best_balanced = false;
  Weight best_objective = 0;
  for (int r = 0; r < runs; ++r) {
    const std::uint64_t seed = r == 0 ? ctx.seed : derive_seed(ctx.seed, 0x52, r);
    std::vector<BlockID> blocks = multilevel_partition(hg, ctx, limits, seed, cache);
    if (runs == 1)
      return blocks;
    PartitionedHypergraph phg(hg, ctx.k);
    phg.assign(blocks);
    const bool balanced = is_balanced(phg, limits.max_weight);
    const Weight objective = phg.objective(ctx.objective);
    if (r == 0 || (balanced && !best_balanced) ||
        (balanced == best_balanced && objective < best_objective)) {
      best = std::move(blocks);
      best_balanced = balanced;
      best_objective = objective;
    }
  }
  return best;
}

// Multilevel run (or V-cycles from `start`, if given), then the final repair of empty blocks
// and balance. `start` is taken, so that no copy of it outlives the first V-cycle's coarsening
// (4 bytes an input vertex through the whole run: 1.24 MiB of cnr-2000's peak in FM on the
// input level, issue #20). `parkable`: the hypergraph again, when its pins may be packed while
// coarser levels are worked on (HgContext::parkable_input).
Partition partition_from(const Hypergraph& hypergraph, const PartitionOptions& options,
                         std::vector<BlockID> start, Hypergraph* parkable = nullptr) {
  check_options(options, hypergraph.num_nodes());
  HgContext ctx = make_context(options);
  ctx.parkable_input = parkable;
  const bool from_start = !start.empty();
  if (from_start)
    use_graph_start_flows(ctx, hypergraph, start);
  Timer timer; // the phases, printed as a tree under -v
  if (options.logger.enabled(LogLevel::kInfo) || options.progress != nullptr)
    ctx.timer = &timer;
  timer.report_to(options.progress);
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
    std::vector<BlockID> blocks;
    Km1GainCache cache;
    int vcycles = 0;
    if (!from_start) {
      vcycles = ctx.refinement.vcycles;
      blocks = repeat_vcycles(best_of_runs(hypergraph, ctx, limits, cache), vcycles,
                              [&](std::vector<BlockID> b, int v) {
                                const auto phase = scoped_phase(ctx.timer, "v-cycle");
                                return vcycle(hypergraph, ctx, limits, std::move(b),
                                              derive_seed(ctx.seed, 0x5C, v), cache);
                              });
    } else {
      blocks = std::move(start);
      vcycles = graph_start_vcycles(hypergraph, ctx, limits, blocks, cache);
    }
    const bool refine_start = from_start && vcycles == 0; // on the input level only
    if (!refine_start && !needs_repair(hypergraph, blocks, limits)) {
      result.blocks = std::move(blocks);
      return;
    }
    PartitionedHypergraph phg(hypergraph, options.k);
    phg.assign(blocks);
    if (refine_start)
      refine_level(phg, ctx, limits, derive_seed(ctx.seed, 0x5D), cache);
    fill_empty_blocks(phg, ctx, limits.max_weight);
    if (!rebalance(phg, ctx, limits.max_weight))
      throw InfeasibleBalance(
          fmt::format("could not balance {} blocks within epsilon = {} (max block weight {})",
                      options.k, options.epsilon, limits.max(0, 0)));
    result.blocks.assign(phg.blocks().begin(), phg.blocks().end());
  });
  if (ctx.timer != nullptr)
    log_phases(options.logger, timer);
  if (options.logger.enabled(LogLevel::kInfo)) // the objective costs a recount of every net
    options.logger.info("hypergraph partition: n = {}, nets = {}, k = {}, {} = {}", n,
                        hypergraph.num_nets(), options.k, to_string(ctx.objective),
                        hypergraph_objective(hypergraph, result, ctx.objective));
  return result;
}

} // namespace

Partition partition_hypergraph(const Hypergraph& hypergraph, const PartitionOptions& options) {
  if (is_bottleneck(options.objective))
    throw InvalidParameter(fmt::format(
        "--objective {} needs a graph input (its column-net model, --model hypergraph): the "
        "nets of a hypergraph have no owners to send them",
        to_string(options.objective)));
  return partition_from(hypergraph, options, {});
}

namespace {

// The column-net model starts from the graph partitioner for km1 (k > 1, n > 0).
bool uses_graph_start(const CsrGraph& graph, const PartitionOptions& options) {
  return options.k != 1 && graph.num_nodes() != 0 && options.objective == Objective::kKm1;
}

// The edge-cut partition of `graph` (already with the model's vertex weights and unit edge
// weights) that starts the model's V-cycles.
Partition graph_start(const CsrGraph& graph, const PartitionOptions& options) {
  PartitionOptions graph_options = options;
  graph_options.model = Model::kGraph;
  graph_options.objective = Objective::kCut;
  graph_options.logger = {};
  // Measured: the strong graph preset's lower edge cut is no better a start for km1; strong
  // spends its time on V-cycles instead.
  if (options.preset == Preset::kStrong)
    graph_options.preset = Preset::kDefault;
  ml::MultilevelContext ctx = ml::create_context(graph_options);
  // Regions grown from random vertices, not from the rim (the graph engine's default since
  // session 15, docs/generalisation.md): the rim start was measured for the edge cut only, and
  // here it made the column-net runs slower with no better volume (uk-2007-05-100k k = 128:
  // 8.48-8.86 s against 7.24-7.26 s, volume 144821 against 143767; cornell5 k = 2: 1.01-1.04 s
  // against 0.89-0.90 s, 13872 against 13907; 2 threads, interleaved, same sitting).
  ctx.initial.peripheral_sweeps = 0;
  // Nor the balance ties and the greedy pass of session 16 (graph engine's default): measured
  // for the edge cut only, so the model's start stays the one its volumes were measured from.
  ctx.refinement.fm_balance_ties = false;
  std::erase(ctx.refinement.algorithms, ml::Refiner::kGreedy);
  ctx.refinement.relaxed_fm_greedy = false; // nor session 25's greedy pass after relaxed FM
  // Nor the fast preset's deep multilevel from k = 64 (session 18, measured for the edge cut).
  ctx.initial.deep_min_k = 0;
  return partition_graph_multilevel(graph, graph_options, std::move(ctx));
}

// The start at small k (k <= HgContext::graph_start_tries_max_k): edge-cut partitions from
// different seeds, side by side on the run's threads, the last with edges priced for km1
// (HgContext::graph_start_priced_try), and the one whose column-net km1 (the graph's comm
// volume) is lowest, the first among equals. A bisection's one cut depends on
// where its multilevel run starts, and the V-cycle keeps the start's cut region: the start's km1
// picked the better final volume in most of the shared graphs' k = 2 runs (docs/hypergraph.md).
// Each try is a graph run of its own with threads / tries threads, so the partition depends on
// the seed and the thread count only. Larger k: the one start.
} // namespace

Partition hg::best_graph_start(const CsrGraph& graph, const PartitionOptions& options,
                               const HgContext& ctx) {
  const int tries =
      options.k <= ctx.graph_start_tries_max_k ? std::max(1, ctx.graph_start_tries) : 1;
  if (tries == 1)
    return graph_start(graph, options);
  PartitionOptions each = options;
  each.threads = std::max(1, resolve_threads(options.threads) / tries);
  const bool priced = ctx.graph_start_priced_try &&
                      km1_priced_copy_bytes(graph) <= ctx.graph_start_priced_max_bytes;
  std::vector<Partition> starts(static_cast<std::size_t>(tries));
  std::vector<Weight> volumes(starts.size());
  run_with_threads(options.threads, [&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, tries, 1),
        [&](const tbb::blocked_range<int>& range) {
          for (int t = range.begin(); t != range.end(); ++t) {
            PartitionOptions try_options = each;
            if (t > 0)
              try_options.seed = derive_seed(options.seed, 0x47, static_cast<std::uint64_t>(t));
            if (t == tries - 1 && priced) // the copy lives for this try only
              starts[t] = graph_start(graph_with_km1_prices(graph), try_options);
            else
              starts[t] = graph_start(graph, try_options);
            volumes[t] = compute_graph_metrics_sequential(graph, starts[t]).comm_volume;
          }
        },
        tbb::simple_partitioner());
  });
  const auto best = std::min_element(volumes.begin(), volumes.end()) - volumes.begin();
  return std::move(starts[best]);
}

namespace {

// Net e of a column-net model belongs to vertex e.
std::vector<NodeID> column_net_owners(const Hypergraph& column_net) {
  if (column_net.num_nets() != column_net.num_nodes())
    throw InvalidParameter(fmt::format("a column-net model has one net per vertex, not {} for {}",
                                       column_net.num_nets(), column_net.num_nodes()));
  std::vector<NodeID> owners(column_net.num_nodes());
  std::iota(owners.begin(), owners.end(), NodeID{0});
  return owners;
}

// The km1 partition of the column-net model, then bottleneck refinement.
Partition partition_bottleneck(const CsrGraph& graph, const Hypergraph& column_net,
                               const PartitionOptions& options, const EpochInput* epoch) {
  if (options.objective == Objective::kEpoch && epoch == nullptr)
    throw InvalidParameter("--objective epoch needs a machine profile (--cost PROFILE.json)");
  const std::vector<NodeID> owners = column_net_owners(column_net);
  PartitionOptions km1 = options;
  km1.objective = Objective::kKm1;
  Partition result = partition_column_net(graph, column_net, km1);
  if (options.k == 1 || column_net.num_nodes() == 0)
    return result;
  const HgContext ctx = make_context(options);
  const BlockLimits limits = uniform_limits(column_net, options.k, options.epsilon);
  run_with_threads(options.threads, [&] {
    PartitionedHypergraph phg(column_net, options.k);
    phg.assign(result.blocks);
    const BottleneckStats s = bottleneck_refine(phg, owners, ctx, limits, epoch);
    options.logger.info(
        "{} refinement: max block volume {} -> {}, total {} -> {}, epoch {:.6g} "
        "-> {:.6g} s, {} moves in {} rounds, {} cycles, {} restarts, {} starts, {:.1f}x the "
        "pins priced",
        to_string(options.objective), s.start_max_volume, s.max_volume, s.start_total, s.total,
        s.start_epoch_seconds, s.epoch_seconds, s.moves, s.rounds, s.cycles, s.restarts, s.starts,
        static_cast<double>(s.work) / static_cast<double>(column_net.num_pins()));
    result.blocks.assign(phg.blocks().begin(), phg.blocks().end());
  });
  return result;
}

} // namespace

Partition partition_column_net(const CsrGraph& graph, const Hypergraph& column_net,
                               const PartitionOptions& options, const EpochInput* epoch) {
  check_options(options, column_net.num_nodes());
  if (is_bottleneck(options.objective))
    return partition_bottleneck(graph, column_net, options, epoch);
  if (graph.num_nodes() != column_net.num_nodes())
    throw InvalidParameter(fmt::format("column-net model has {} vertices, the graph {}",
                                       column_net.num_nodes(), graph.num_nodes()));
  if (!uses_graph_start(graph, options))
    return partition_hypergraph(column_net, options);
  check_feasible(column_net, uniform_limits(column_net, options.k, options.epsilon));
  // The weighted copy of the graph is gone before the hypergraph levels are built.
  Partition start =
      best_graph_start(graph_with_model_weights(graph, column_net), options, make_context(options));
  return partition_from(column_net, options, std::move(start.blocks));
}

Partition partition_column_net(CsrGraph& graph, ColumnNetWeights weights,
                               const PartitionOptions& options,
                               std::vector<double>* model_imbalance) {
  check_options(options, graph.num_nodes());
  auto finish = [&](const Hypergraph& model, Partition partition) {
    if (model_imbalance != nullptr)
      *model_imbalance = compute_hypergraph_metrics(model, partition).imbalance;
    return partition;
  };
  // The bottleneck refiner keeps the graph beside its model: no lending there.
  if (is_bottleneck(options.objective) || !column_net_in_place_ok(graph)) {
    const Hypergraph model = build_column_net(graph, weights);
    return finish(model, partition_column_net(graph, model, options));
  }
  Partition start;
  if (uses_graph_start(graph, options)) {
    const ModelWeightedGraph weighted(graph, weights);
    check_feasible(weighted.graph(), uniform_limits(weighted.graph(), options.k, options.epsilon));
    start = best_graph_start(weighted.graph(), options, make_context(options));
  }
  ColumnNetInPlace in_place(graph, weights);
  return finish(in_place.model(),
                start.blocks.empty()
                    ? partition_hypergraph(in_place.model(), options)
                    : partition_from(in_place.model(), options, std::move(start.blocks),
                                     &in_place.model()));
}

Weight hypergraph_objective(const Hypergraph& hypergraph, const Partition& partition,
                            Objective objective) {
  check_partition(partition, hypergraph.num_nodes());
  if (objective == Objective::kEpoch)
    throw InvalidParameter("the epoch objective has no integer value: see gnnpart evaluate --cost");
  PartitionedHypergraph phg(hypergraph, partition.k);
  phg.assign(partition.blocks);
  if (objective == Objective::kMaxVolume) {
    const std::vector<NodeID> owners = column_net_owners(hypergraph);
    return BlockVolumes(phg, owners).max_volume();
  }
  return phg.objective(objective == Objective::kVolume ? Objective::kKm1 : objective);
}

} // namespace gnnpart
