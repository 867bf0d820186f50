#include "partition/multilevel/context.h"

#include "core/multilevel_steps.h"

// A preset names only what differs from the defaults in context.h.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace gnnpart::ml {
namespace {

using enum Refiner;

// Chosen on 12 shared graphs x k in {2, 8, 32, 128} against gpmetis (scripts/bench_graph.sh
// figures in the report of issue #3's fast target):
// - a single initial try lost up to 8x on web graphs (cnr-2000, k = 2); three tries on the top
//   two levels of recursive bisection and two below fix that at little cost;
// - a coarsest graph of about 20 k vertices (not 160 k), with clusters up to 1.5 W / (20 k)
//   so that graphs with few vertices per block get there, makes recursive bisection cheaper at
//   large k at the same cut (3 seeds, all 21 graphs: 1.035x gpmetis's cut at 0.60x its time
//   with 30 k against 1.031x at 0.69x with 60 k, 1 thread). Its cost grows with the coarsest
//   graph's C k vertices (tries x bisection levels), while uncoarsening gets back most of what
//   a coarser start loses. 20 k against 30 k (issue #20, session 12; seed 0, 21 graphs x k in
//   {2, 8, 32, 128}, CPU time in two sittings): 0.9988x the cut (k = 2: 0.973x, 8 / 32 / 128:
//   1.007x / 1.008x / 1.008x) at 0.936x / 0.942x the CPU time; 15 k: 1.026x at 0.906x; 10 k:
//   1.068x at 0.879x;
// - 32 label-propagation batches per coarsening round (not 8) let later batches see earlier
//   moves, so fewer vertices move back and forth in later rounds;
// - one FM pass that gives up after 3 non-improving moves, without label propagation before
//   it, beats label propagation plus FM on both cut and time;
// - issue #20, session 15 (docs/graph.md, "The fast preset's coarsening and searches"): 2
//   label-propagation rounds per level, not 3. Clustering the finest level is a run's largest
//   single cost (a round visits every vertex and reads the cluster of every neighbour, a cache
//   miss per arc once the graph outgrows the cache, and later rounds cost about as much as the
//   first), while FM on every level takes back most of what a third round would have found
//   (seed 0: 1.0071x the cut at 0.928x the CPU time). And FM searches do not grow into their
//   moves' target blocks (fm_expand_target; a move only lowers the gains of its target-block
//   neighbours, and such searches rate about a third fewer vertices, docs/generalisation.md).
//   Both: 1.0096x the cut of 3 rounds with expansion, 21 graphs x k in {2, 8, 32, 128} x 3
//   seeds (1.0367x gpmetis's).
// - issue #20, session 18 (docs/graph.md, "Deep multilevel for the fast preset"): from k = 64
//   on, deep multilevel (deep_multilevel.h) in place of recursive bisection of the coarsest
//   graph. Recursive bisection coarsens and refines the subgraph of every one of its k - 1
//   bisections again, log2 k nested hierarchies over the C k vertices of the coarsest graph;
//   deep multilevel splits blocks while uncoarsening, each split a flat bisection of C to 2 C
//   vertices, so what it saves grows with log2 k: 21 graphs x 2 seeds, CPU time 0.954x /
//   0.898x / 0.833x at k = 32 / 64 / 128 for 1.0222x / 1.0156x / 1.0138x the cut; generated
//   graphs 0.964x / 0.925x / 0.895x for 1.015x / 1.015x / 1.013x. At k = 32 that is the rate of
//   the settings measured before (about 1% of cut for 2-5% of time), not worth its cut.
// - issue #20, session 29 (docs/graph.md, "The fast preset on meshes and small graphs"): the
//   unweighted finest level of a matched graph matched in one visit (random_unit_matching:
//   every edge ties there, so the proposal rounds only ranked ties by a hash): 0.9389x the
//   instructions on 5 meshes x k 2 / 32 for 1.0087x the cut (60 shared mesh runs) and 0.9901x
//   (96 generated mesh runs).
const MultilevelContext kFast{
    .coarsening = {.algorithm = ClusteringAlgorithm::kAuto,
                   .lp_rounds = 2,
                   .batches_per_round = 32,
                   .contraction_limit = 20,
                   .cluster_weight_factor = 1.5,
                   .random_unit_matching = true},
    .initial = {.tries = 3, .deep_tries = 2, .fm_passes = 2, .fm_max_bad = 40, .deep_min_k = 64},
    .refinement = {.algorithms = {kRebalance, kFm, kRebalance},
                   .lp_rounds = 0,
                   .fm_passes = 1,
                   .fm_max_bad = 3,
                   .fm_expand_target = false,
                   .fm_parallel = true,
                   .volume_passes = 2},
};

// Chosen on all 21 shared graphs x k in {2, 8, 32, 128} against gpmetis (issue #3 report):
// - label-propagation refinement rounds find little that FM would not;
// - a coarsest graph of 40 k vertices, not 160 k (clusters may weigh 1.5 W / (40 k)), makes
//   recursive bisection cheap where it dominated (k >= 32: 50-90% of the time) at the same cut;
// - one strict FM pass and one relaxed pass (3% overload, then rebalancing) beat three strict
//   passes: 0.936x instead of 0.963x gpmetis's cut, at 0.92x instead of 1.08x its time;
// - issue #20: a localized search goes past its 10 non-improving moves, up to 20, while their
//   gains, as a random walk, may still recover (alpha 2: the deficit is under 1.41 standard
//   deviations of the walk). A hub's move comes after negative moves of its neighbours, so
//   R-MAT k = 8 needs that tail (104472 -> 101097 on the generated rmat); 8 shared graphs x k
//   8/32/128: 0.9953x the cut at 1.018-1.025x the CPU time (docs/generalisation.md);
// - issue #20: greedy and BFS growing on the coarsest graphs start from the last vertex a
//   breadth-first search from a random one reaches. A region grown from inside a mesh-like graph
//   has a front all around it, one grown from its rim a front on one side only, and the
//   bisections at the coarsest level fix the boundary's shape, which uncoarsening refines only
//   locally. Generated suite but R-MAT, seeds 0-4: 0.9851x -> 0.9802x gpmetis's cut; shared
//   graphs 1.0010x the cut, CPU time unchanged (one BFS per try on a graph of about 80 vertices).
// - issue #20, session 16: of two FM prefixes with the same gain the more even one is the better
//   (fm_balance_ties), and one greedy pass after strict FM (kGreedy: METIS's positive moves and
//   zero-gain moves into lighter blocks). Strict FM leaves blocks at their limit, and a localized
//   pass visits each boundary vertex once; both make the room and take the moves it leaves.
//   Generated suite but R-MAT, seeds 0-4: 0.9802x -> 0.9723x gpmetis's cut (every family
//   gains); shared graphs 0.9240x -> 0.9171x; CPU time 1.009-1.013x (docs/generalisation.md,
//   "Even blocks"). A second greedy pass before strict FM takes the projected partition's easy
//   moves and evens the blocks before FM searches; it hands FM its shuffled boundary list, so
//   the level scans and shuffles once for both: 0.9723x -> 0.9698x (seeds 5-9 0.9737x ->
//   0.9699x), shared graphs 0.9174x, instructions 1.0041x on 5 shared runs, 1.0059x on 23
//   (docs/generalisation.md, "One boundary list for the greedy pass and FM").
// - issue #20, session 25: after relaxed FM is kept, one more greedy pass (relaxed_fm_greedy) on
//   the gain cache its rebalancing keeps current: the rebalancer's forced moves open moves that
//   no refiner of the level looks at, and on the input level none after it. Paid for by the
//   rebalancer's cheaper fallback target (0.9806x instructions on 23 shared runs, same
//   partitions): generated suite but R-MAT 0.9694x -> 0.9652x gpmetis's cut at seed 0, 0.9698x
//   -> 0.9686x over seeds 0-4; shared graphs (252 runs) 0.9999x the cut; instructions 0.9958x
//   main's on 16 shared runs (docs/generalisation.md, "The rebalancer's fallback target").
// - issue #20, session 17: with 2 and 3 threads FM runs in block groups (fm_block_groups,
//   group_fm_refiner.h): groups of consecutive block ids at once, then the moves between them.
//   Deterministic per thread count; 2 threads: 0.9991x sequential FM's cut on 21 shared graphs x
//   k 8/32/128 x 3 seeds, 0.9995x on generated graphs (docs/scaling.md).
const MultilevelContext kDefault{
    .coarsening = {.algorithm = ClusteringAlgorithm::kAuto,
                   .contraction_limit = 40,
                   .cluster_weight_factor = 1.5},
    .initial = {.peripheral_sweeps = 1},
    .refinement = {.algorithms = {kRebalance, kGreedy, kFm, kGreedy, kRebalance, kRelaxedFm},
                   .lp_rounds = 0,
                   .fm_passes = 1,
                   .fm_walk_alpha = 2,
                   .fm_balance_ties = true,
                   .fm_parallel = true,
                   .fm_block_groups = true,
                   .relaxed_fm_slack = 0.03,
                   .relaxed_fm_passes = 1,
                   .relaxed_fm_greedy = true},
};

// The default preset plus relaxed FM (an FM pass that may overload blocks by 3%, then the
// rebalancer), twice the initial tries and V-cycles. Over all 21 shared graphs x k in
// {2, 8, 32, 128} without V-cycles: 0.920x gpmetis's cut at 1.61x its time (1 thread). On 10
// graphs x k in {8, 32, 128}, two V-cycles took 0.971x that cut at 1.62x that time (geometric
// means); one V-cycle 0.980x at 1.30x; two V-cycles with the default's initial tries 0.977x at
// 1.44x. Issue #20 (docs/graph.md): FM passes, strict and relaxed, until one gains less than
// 0.1% of the cut it started from (at most 10; later passes on a level pay less and less) free
// time for a third V-cycle (a new coarsening around the current blocks, so it finds moves that
// FM on the same levels does not): 0.9946x the cut of 4 + 4 fixed passes and two V-cycles at
// 1.071x their CPU time (10 shared graphs x k in {8, 32, 128}). Up to 4 V-cycles that stop
// after one gaining < 0.05% (0.2%) of the cut: 0.9934x (0.9945x) at 1.251x (1.226x); a V-cycle
// without gain may precede one with gain, so a fixed count it is.
const MultilevelContext kStrong{
    .vcycles = 3,
    .coarsening = {.algorithm = ClusteringAlgorithm::kAuto,
                   .contraction_limit = 40,
                   .cluster_weight_factor = 1.5},
    .initial = {.tries = 12, .deep_tries = 6},
    .refinement = {.algorithms = {kRebalance, kFm, kRebalance, kRelaxedFm},
                   .lp_rounds = 0,
                   .fm_passes = 10,
                   .fm_min_pass_gain = 0.001,
                   .fm_parallel = true,
                   .volume_passes = 8,
                   .relaxed_fm_slack = 0.03,
                   .relaxed_fm_passes = 10},
};

} // namespace

MultilevelContext create_context(const PartitionOptions& options) {
  MultilevelContext ctx =
      context_for_run(select_preset(options.preset, kFast, kDefault, kStrong), options);
  ctx.logger = options.logger;
  return ctx;
}

} // namespace gnnpart::ml
