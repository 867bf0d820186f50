#pragma once
// Configuration of one hypergraph partitioning run, nested by phase (KaMinPar style). Built
// once from PartitionOptions and a preset (data, context.cc) by make_context(); passed down as
// const&. Values that change per
// level or per subproblem (block weight limits) travel separately as max_weights spans.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/options.h"
#include "core/timer.h"
#include "core/types.h"

namespace gnnpart {
class Hypergraph;
} // namespace gnnpart

namespace gnnpart::hg {

struct CoarseningContext {
  NodeID contraction_limit_multiplier = 160; // stop near 160 * k vertices
  // Larger nets are ignored when rating (the rating is 2-hop: |e|^2 per net). Measured against
  // 1000: Titan23 1.56x -> 1.41x the best known km1 (3 seeds), graphs the same volume in 14% less
  // time. 50 instead of 100: the same volume on 8 graphs x 4 k (0.9988x) in 5% less time, 45%
  // less on the dense social graphs (cornell5, mit8); ISPD98/Titan23 1.162x instead of 1.170x.
  NodeID max_rating_net_size = 50;
  // In runs from scratch (not in V-cycles, whose clusters stay within the given blocks), a
  // vertex rates a cluster by r(u, C) / (c(u) + c(C)), the shared nets per unit of the joint
  // cluster's weight (a form of KaHyPar's heavy-node penalty, r / (c(u) c(C))). Without it a vertex
  // joins the cluster that already absorbed its other neighbours (on netlists of 2-pin nets, the
  // one it shares most nets with), which fills first; its remaining neighbours, about half the
  // cap each, then fit no cluster and the coarsening stalls above its limit (docs/hypergraph.md,
  // `hgbest3`, `hgbest5`).
  bool rate_per_cluster_weight = true;
  double max_shrink_per_pass = 2.5;  // a pass stops at n / 2.5 clusters
  double min_shrink_per_pass = 1.01; // coarsening ends when a pass shrinks less
  int sub_rounds = 16;               // synchronous sub-rounds per clustering pass
  // A run from scratch whose coarsening stalls above its limit (a pass shrinks by less than
  // min_shrink_per_pass with more than contraction_limit_multiplier * k vertices left) gets a
  // second start: its coarsest level coarsened on to this multiplier * k vertices (clusters up
  // to W / (multiplier * k)), partitioned there and refined k-way back up; the coarsest level
  // keeps whichever start has the lower objective after refinement there. 0: off; nested runs
  // (bisections, the second start itself) run with 0. See docs/hypergraph.md (`hgbest3`).
  NodeID stalled_deep_multiplier = 20;
  // ... only where the stalled level holds at most this share of the input's pins: the deeper
  // run costs about a multilevel run on that level, so at most about half a run. Seed 0, that
  // share: Titan23 0.066-0.461, ISPD98 0.210-0.560, generated ba / rmat 0.816-0.925 (there the
  // deeper start cost 1.6x-2.7x the CPU and never won).
  double stalled_deep_max_pin_share = 0.5;
  // Deeper runs of different seeds there; the one of lowest objective on the stalled level is
  // the deeper start. Each is a multilevel run of its own below the stalled level, refined
  // through its own hierarchy, so its objective there ranks it as the final one does (where
  // fresh initial partitions of the stalled level need most of the uncoarsening to be ranked),
  // and each costs at most about half a run (the pin-share bound above). Titan23 over 3 seeds:
  // 2 runs 0.9856x, 3 runs 0.9658x the km1 of one; docs/hypergraph.md (`hgbest7`).
  int stalled_deep_runs = 3;
};

struct InitialContext {
  int runs_per_algorithm = 8; // flat bisection portfolio: tries of each algorithm
  // The same, for bisections at recursion depth >= full_runs_depth. Graphs start from the graph
  // partitioner and skip initial partitioning; on ISPD98/Titan23 (3 seeds) 8 instead of 2 gave
  // 1.2599x instead of 1.2828x the best known km1 for 22% more time.
  int deep_runs_per_algorithm = 8;
  int full_runs_depth = 2;
  int fm_rounds = 3;
  double fm_max_bad_fraction = 0.25; // 2-way FM stops after this fraction of n moves without gain
};

// Flow-based refinement on pairs of adjacent blocks (flow_refiner.h), after FM on every level.
// Figures: 6 ISPD98/Titan23 hypergraphs x k in {2, 8, 32, 128}, default preset, 1 thread,
// km1 and time against the same runs without flows, unless said otherwise.
struct FlowContext {
  // Default preset: on for hypergraph inputs (1.077x instead of 1.170x the best known km1, at
  // about twice the time), off when refining a graph partitioner's start on a column-net model
  // (there it gains 1.1% volume at 2.1x the time, outside the default's time budget).
  bool enabled = true;
  bool on_graph_start = false;
  // Graph starts with at most this many blocks run flows on the input level of their V-cycles
  // where on_graph_start is off. At k = 2 the one block pair's flow problem covers the whole
  // cut, and FM's single moves stall there on column nets (moving one vertex rarely lowers a
  // net's connectivity), so a min cut finds boundary shifts FM does not; at larger k a round
  // solves up to k (k - 1) / 2 pair problems and costs more per gain. Graph starts, 2 threads,
  // seed 0, CPU against no flows (docs/hypergraph.md): on the input level only, one round, 21
  // graphs at k = 2: 0.9881x the volume at 1.036x the CPU, none worse (dblp-2010 0.9557x);
  // 8 rounds on 16 graphs: 0.9843x at 1.115x (k = 2), 0.9881x / 0.9921x / 0.9948x at 1.248x /
  // 1.609x / 1.692x (k = 8 / 32 / 128). Coarser levels add nothing (every level: 0.9865x at
  // k = 2). One round: dblp-2010 k = 2 16744 -> 16002 at 1.45x its CPU, 8 rounds 15969 at 2.28x.
  // Off by default (0): on the idle machine (bench_hypergraph.sh, 18c97da, k = 2, 21 graphs) the
  // round gave 0.9970x the volume at 1.013x the wall time but 1.402x the peak RSS, up to 4.9x on
  // the web graphs (cnr-2000 k = 2: 274552 KB against 55900 KB with --flows off): the flow
  // network over a k = 2 region holds several times the column-net pins, far past issue #20's
  // 3x-the-pins bound. Set to 2 to use it; next: a flow network bounded in memory.
  BlockID graph_start_flows_max_k = 0;
  // At k > 2, the same input-level round when the start's km1 is at most this many per vertex
  // (0: never): the cut is then a thin separator between block interiors (meshes, geometric
  // graphs), a pair's region reaches past the boundary band on both sides, and a min cut
  // re-routes the separator where FM's single moves cannot (a column net's connectivity drops
  // only once all its pins on one side have moved). Where the volume is about one per vertex or
  // more (Barabasi-Albert 3.5-6.9, web-like 1.4-2.7, social graphs at k >= 8), most vertices sit
  // on the boundary, a region is the boundary band itself, and a round costs 1.2-2.8x the run's
  // CPU for at most 0.5% (generated suite, docs/generalisation.md, session 27 `hgmesh`).
  double graph_start_flows_max_volume_per_vertex = 0.5;
  // ... and only where the nets have about even sizes: the pin-weighted mean net size at most
  // this many times the mean (net_size_skew). A pair's region takes every net of its vertices,
  // so around hubs its network holds the hubs' pins: 2 threads, k = 8, cnr-2000 (skew 152)
  // peaked at 331144 KB against 48692 KB without the round, dblp-2010 (2.66) at 93192 against
  // 31180, for 0.24% / 0.15% of volume; the meshes, rgg and power-grid have 1.00-1.24.
  double graph_start_flows_max_net_size_skew = 2;
  int graph_start_flow_rounds = 1;
  bool input_level_only = false; // flows only on a cycle's input level (set for the above)
  // Region of a pair: b0's side takes at most what b1 could hold at (1 + alpha * eps) times its
  // perfect weight, minus b1's weight (KaHyPar); the cut must still meet the real limits.
  // alpha 16: 0.9208x km1 at 1.97x the time; 8: 0.9355x at 1.50x; 4: 0.9623x at 1.24x.
  double alpha = 16;
  // The same when refining a graph partitioner's start on a column-net model: its nets are
  // large, so the networks are several times larger per region vertex. On 8 graphs x 4 k:
  // alpha 16 0.9801x the volume at 8.71x the time, alpha 4 0.9891x at 2.13x.
  double graph_start_alpha = 4;
  int max_rounds = 8; // rounds over the block pairs
  // After the first round, only pairs with a cut net that a kept move touched (instead of every
  // pair with a block that improved): same km1 (0.9208x vs 0.9212x), 0.82x the time.
  bool schedule_touched_pairs = true;
  double min_relative_improvement = 0; // stop when a round gains at most this fraction
  NodeID max_bfs_net_size = 1000;      // larger nets are in the network but do not grow it
  // BFS layers around the cut nets: 2 gave 0.9307x at 1.82x (alpha 16, before ISAP).
  int max_bfs_distance = 1 << 30;
  Weight min_pair_cut = 0;              // pairs joined by less cut-net weight are skipped
  double bulk_piercing_fraction = 0.25; // FlowCutter: share of the missing weight per step
  int max_piercing_iterations = 1000;   // max-flow rounds per pair
  bool in_initial_partitioning = false; // also inside the recursive bisections
};

// The refiners of one level, run in the order of RefinementContext::algorithms
// (refiners.cc turns each into its algorithm; a new refiner is one enum value and one case).
enum class Refiner {
  kRebalance,        // moves out of overloaded blocks, best gain first (refinement.h)
  kLabelPropagation, // lp_rounds rounds of label propagation
  kFm,               // k-way FM with the gain cache
  kRelaxedFm,        // FM that may overload blocks by relaxed_fm_slack, kept if better
  kFlows,            // flow refinement on block pairs when flows.enabled (flow_refiner.h)
};

struct RefinementContext {
  std::vector<Refiner> algorithms = {Refiner::kRebalance, Refiner::kLabelPropagation,
                                     Refiner::kFm,        Refiner::kRebalance,
                                     Refiner::kRelaxedFm, Refiner::kFlows};
  int vcycles = 0; // V-cycles after the first multilevel run (top level only)
  // Column-net model of a graph: V-cycles on the hypergraph that start from the graph
  // partitioner's edge-cut partition (instead of a multilevel run of the hypergraph).
  int graph_start_vcycles = 1;
  // One more V-cycle (up to graph_start_max_vcycles in all) when the last one divided km1 by
  // at least this factor: the start was far from what the hypergraph model finds, as on web
  // graphs at large k (cnr-2000 k = 128: the edge-cut start has km1 247130, the first V-cycle
  // 106541, a second one 91197 in 1.7x the time, a third 90586). Most graphs gain 1.1-1.5x in
  // the first V-cycle and no more than 1-2% in a second one, at twice the time.
  double graph_start_extra_vcycle_factor = 2.0;
  // ... and only when its refinement updated and re-rated at most this many gain-cache entries
  // per input pin (Km1GainCache::work): the next cycle costs about as much again (or more:
  // uk-2007-05-100k k = 32 67 then 88), and the run's time is proportional to that work.
  double graph_start_extra_vcycle_max_work = 40;
  int graph_start_max_vcycles = 3;
  int lp_rounds = 2;
  int vcycle_lp_rounds = 0; // LP rounds in V-cycles: FM finds what LP would in a refined start
  int fm_rounds = 10;
  double fm_min_improvement = 0.002; // stop FM rounds improving less than this fraction
  // After strict FM, FM that may overload blocks by this fraction of their perfect weight,
  // then rebalancing; kept if better (0: off). Measured against off: graphs 0.8284x -> 0.8168x
  // METIS's volume (+24% CPU), ISPD98/Titan23 1.2174x -> 1.1855x the best known (+18%).
  double relaxed_fm_slack = 0.03;
  // Strict FM is skipped on a level with at most this many times the vertices of the coarser
  // level it was projected from (0: never), when relaxed FM runs there and k > 2. Strict FM
  // converged on the coarser level and the projection split few clusters, so its rounds there
  // mostly repeat failed searches; relaxed FM's first round seeds from every boundary vertex
  // under wider limits, so it still finds the moves the split clusters open. At k > 2 most
  // blocks sit at their limit after the coarser level, so it is relaxed FM's new slack that
  // gains there (uk-2007-05-100k k = 128, levels 1.5% and 4.8% above their coarser one: strict
  // FM 202 and 106, relaxed FM 10436 and 2509). With two blocks one has room whenever the other
  // is full, so strict FM is not blocked and still pays (wiki-vote k = 2: 54 of 3327 on a level
  // 3.6% above its coarser one, relaxed FM nothing after it). docs/hypergraph.md.
  double strict_fm_skip_max_growth = 1.05;
  // FM on a level whose finer level has at most this many times its vertices (0: never) stops
  // where a round from the active vertices does not pay, without the round from every boundary
  // vertex that decides elsewhere (fm_active_seeds): the finer level's first round seeds from
  // every boundary vertex of nearly the same hypergraph under the same limits, so it decides in
  // its place, and finds what the skipped round would have. uk-2007-05-100k k = 128 (levels
  // 45199 -> 45881 -> 48075): 0.70x / 0.83x the refinement work at seeds 0 / 1
  // (docs/hypergraph.md).
  double fm_deciding_round_skip_max_growth = 1.05;
  // Whether FM runs the deciding round above (refine_level clears it on such levels).
  bool fm_deciding_round = true;
  // Relaxed FM in the extra V-cycles (past graph_start_vcycles) stops where an active round does
  // not pay, without the deciding round, when false. Such a cycle starts from a partition a whole
  // cycle refined, and there the rebalancer gives back most of what relaxed FM's later rounds
  // find (cnr-2000 k = 128, second cycle: 78-100% of relaxed FM's gain, first cycle 5-75%):
  // 0.69x the refinement work at seed 0 for 1.0036x its volume (docs/hypergraph.md, `hg11`).
  bool extra_vcycle_relaxed_fm_deciding_round = false;
  // Whether relaxed FM runs the deciding round (graph_start_vcycles clears it per the above).
  bool relaxed_fm_deciding_round = true;
  int fm_seeds_per_search = 8;
  Weight fm_min_seed_gain = 0; // searches start only from vertices with at least this gain
  // After a round that pays, the next one seeds only from the vertices whose gains its kept
  // moves changed (the moved vertices and the pins re-rated after their moves); when such a
  // round does not pay, a round from every boundary vertex decides whether FM goes on. A round
  // from unchanged vertices mostly repeats searches that failed (90% of moves are rolled back).
  bool fm_active_seeds = true;
  // A search stops after this many moves past its best prefix. 30 instead of 50: the same
  // volume on 21 graphs x 4 k (0.9961x on the 13 larger, 1.0106x on the 8 smaller) in 10-18%
  // less time on the larger ones (2 threads); ISPD98/Titan23 the same km1 (1.0717x vs 1.0716x
  // the best known) in 6% less time. 20: 1.0057x the volume in 17-24% less time.
  NodeID fm_max_moves_without_improvement = 30;
  NodeID max_update_net_size = 1000; // pins of larger nets are not re-rated after a move
  // Parallel FM (parallel_fm_refiner.h) for km1 (and k = 2) when the run has at least
  // fm_parallel_min_threads threads (never below 2); sequential FM below. Its searches run in
  // batches on frozen views, so the result depends on the threads only through the batch size
  // max(fm_batch_searches, 2 x threads), with at least fm_min_batches batches per round.
  // Off by default (kParallelFmOff): at 2 threads (2-core machine, 4 graphs x k = 8/32/128) a
  // whole run cost 1.758x (geometric mean) the CPU of sequential FM for 1.0202x its km1, and on
  // 16 cores (4 graphs x k = 32/128) parallel FM from 8 threads took 1.91x the wall time of
  // sequential FM at 16 threads for 0.969x its volume: the searches of a batch work on a frozen
  // state and collide, and the moves they explore are made again when applied
  // (docs/hypergraph.md). Set it to a thread count to use it.
  static constexpr int kParallelFmOff = 1 << 30;
  int fm_parallel_min_threads = kParallelFmOff;
  int fm_batch_searches = 8;
  int fm_min_batches = 64;
  FlowContext flows;
};

// --objective max-volume / epoch on the column-net model (bottleneck_refiner.h): rounds of
// moves after the km1 run.
struct BottleneckContext {
  double total_budget = 1.05;      // total volume at most this times the km1 start's
  double target_step = 0.02;       // max-volume: a round lowers every block below (1 - step) * max
  double epoch_hot_fraction = 0.1; // epoch: ranks busy >= (1 - this) * the busiest are hot
  int max_rounds = 100;
  int max_stalled_rounds = 3; // stop after this many rounds without a lower maximum (epoch)
  // A round may first overload blocks by this fraction of their limit, then rebalances; it is
  // kept if balanced and better, else done again within the limits.
  double relaxed_slack = 0.05;
  // A round goes on this many moves past its best state (then returns to it); 0: only moves
  // that pay.
  std::uint64_t max_moves_without_improvement = 50;
  NodeID max_vertex_degree = 10000; // larger vertices (or units) stay (pricing is O(degree))
  // Rounds first move whole clusters of this many coarser levels (move_units.h), coarsest first,
  // then single vertices: the bottleneck gain at every level of a V-cycle, priced exactly.
  int unit_levels = 3;
  Weight unit_weight_divisor = 20; // a cluster weighs at most the smallest limit / this
  // V-cycles: each clusters the current partition's blocks anew (another seed) and runs the
  // rounds on its levels and the single vertices; the next starts only if this one lowered the
  // maximum (epoch) by cycle_min_gain. Small graphs, k = 8 / 32 (seed 0, before the work
  // budget): 3 cycles 0.8304x the km1 largest block volume against 0.8580x with 1, 6 cycles
  // 0.8265x.
  int cycles = 4;
  // A V-cycle starts only if the last one lowered the maximum by at least this fraction of it
  // (0: any improvement of (maximum, total) starts the next).
  double cycle_min_gain = 0.005;
  // Max-volume: a V-cycle prices about this many times the input's pins (nets priced, over all
  // its levels; 0: no bound); a level stops when a round ends past its share. Unbounded, a run
  // priced 27x (wing k = 32) to 117x (pubmed k = 8) the pins; cora, citeseer, pubmed, wing,
  // ca-astroph at k = 8 / 32 (CPU against the km1 run, loaded): unbounded 0.7920x the km1
  // largest block volume at 6.16x its time, 16 with cycle_min_gain 0.005 0.7946x at 4.46x,
  // 8 without it 0.8026x at 3.73x, 4 with it 0.8101x at 3.22x; 8 with it on all 22
  // shared-graph runs 0.8269x at 3.13x the wall time. With the spread term and the priced total
  // (below) the budget spends less and the rounds go further: 12 on the 22 runs
  // (docs/hypergraph.md).
  double work_budget = 12;
  // Max-volume: after the refiner, up to this many restarts, until one finds nothing better: a
  // km1 V-cycle from its result (lowering the total the moves spent), then the refiner again
  // within the km1 start's budget; the best result is kept. The 22 shared-graph runs (seed 0): the
  // km1 largest block volume 0.8422x at k = 8 and 0.7087x at k = 32 against 0.8608x and 0.7473x
  // without, at about 3x the refiner's time (docs/hypergraph.md).
  int km1_vcycles = 2;
  // Max-volume: after the km1 start, the refiner and its restarts from further starts within
  // the same budget, the best result kept (multilevel_start.h): the engine's own multilevel run
  // (recursive bisection), and (degree_start_epsilon > 0) the same run with every block's degree
  // sum within that imbalance. The 11 shared graphs at k = 8 (seed 0): the km1 largest block
  // volume 0.8076x against 0.8386x with the km1 start alone (the multilevel start alone 0.8223x,
  // the degree start alone 0.8114x), at 4.5x to 8.5x the CPU of the run without them
  // (docs/hypergraph.md). Degree imbalance 0.3: worse on cora and ca-astroph, within the budget
  // on pubmed where 0.1 is not. Off by default (4.5x to 8.5x the CPU for 3.7% on the largest
  // block is a wait the default should not impose); the strong preset turns both on.
  bool multilevel_start = false;
  double degree_start_epsilon = 0;
  // Max-volume: after the km1 start's chain, the same chain from degree_graph_start
  // (multilevel_start.h): the km1 run's own pipeline (an edge-cut graph partition, km1 V-cycles)
  // whose graph partition also balances every vertex's degree, within the first of these
  // imbalances whose start's total fits the budget (a tighter one shares the dense part among
  // more blocks, a looser one costs less total). The best result is kept. Its start costs a
  // graph partition, not a multilevel run with flows (ca-astroph k = 8: 0.5 s against 10.8 s
  // for degree_start_epsilon's), and gave ca-astroph k = 8 7551 against 7608 from that one and
  // 8281 from the km1 start (docs/hypergraph.md). Empty: off.
  std::vector<double> degree_graph_epsilons = {0.1, 0.25, 0.5};
  // Max-volume: the degree start above from this many seeds of its graph partition (the first
  // is the one-seed run's), the best result kept; a further seed's chain runs its restarts only
  // if its first refinement ends within seed_restart_margin of the best maximum so far (the
  // restarts are about two thirds of a chain's time and lowered a chain's maximum by 0-5%).
  // 3 seeds on the 11 shared graphs at k = 8: the km1 largest block volume 0.8054x against
  // 0.8221x, 6 runs lower, at 1.631x the CPU; on 6 generated graphs one gain (rgg) at 1.4x-1.9x
  // (docs/hypergraph.md, session 18). 1 in every preset for that cost.
  int degree_graph_seeds = 1;
  double seed_restart_margin = 0.01;
  // Max-volume: where the degree start's chain did not pay (none within the budget, or no
  // better result), the same chain from volume_bisection_start (multilevel_start.h,
  // volume_bisection.h): a recursive bisection by the graph engine whose splits after the first
  // balance the volume the earlier splits already incur (Acer, Selvitopi and Aykanat), as the
  // second constraint within the first of these imbalances whose start's total fits the budget.
  // The best result is kept. The 11 shared graphs at k = 8: 0.8159x the km1 largest block volume
  // against 0.8221x, at 1.061x the CPU; run always, 0.8148x at 1.486x; but at k = 32 (6 graphs)
  // and on 6 generated graphs it gained nothing and ran on 9 of the 12 runs at 1.5x-1.9x the
  // CPU (docs/hypergraph.md). Off (empty) by default; the strong preset turns it on.
  std::vector<double> volume_bisection_epsilons = {};
  // Max-volume: once the total has used this fraction of its budget's headroom, every round is
  // followed by moves that lower the total without raising the hot blocks (budget regained).
  double regain_fraction = 0.5;
  // Max-volume: a move's gain is the excess it removes, plus spread_weight times the volume
  // above the average block volume it removes, minus its total-volume increase priced at
  // total_price times the share of the budget's headroom already spent (free at the start, full
  // price once the budget is spent). On cora, citeseer, pubmed, wing, twitch-de, ca-astroph and
  // soc-brightkite at k = 8 / 32 (seed 0): the largest block volume 0.9830x that of both at 0,
  // total 1.0272x the km1 start's instead of 1.0366x, 0.957x the CPU; spread 0.3: 0.9913x,
  // 0.2: 0.9863x; price 0.5 without spread: 0.9940x, a constant price 0.25: 1.0007x.
  double total_price = 0.5;
  double spread_weight = 0.1;
};

struct HgContext {
  BlockID k = 2;
  double epsilon = 0.03;
  std::uint64_t seed = 0;
  Objective objective = Objective::kKm1;
  // Complete multilevel runs from different seeds when k = 2, the best kept (hMETIS's Nruns).
  // A bisection's single cut depends much on the seed (ibm01: km1 202 to 273 over 5 seeds), and
  // k = 2 runs are the cheapest. 3 runs on ISPD98/Titan23 (seed 0, 2 threads): 1.058x instead
  // of 1.072x the best known km1 over all k, 6.4 s more of 46.9 s. Not on a graph's start.
  int bisection_runs = 3;
  // The column-net model of a graph at k <= graph_start_tries_max_k: edge-cut starts from this
  // many seeds, side by side on the run's threads; the V-cycles refine the one of lowest km1
  // (hypergraph_partitioner.cc). 2 instead of 1, 2 threads, 21 shared graphs: k = 2 (3 seeds)
  // 0.9914x the volume at 1.136x the CPU; k = 8 0.9800x at 1.132x, but 1.122x the peak RSS
  // (cnr-2000 1.42x) and wall time not yet measured on an idle machine, so k = 2 only for now
  // (docs/hypergraph.md, `hgk2`).
  int graph_start_tries = 2;
  BlockID graph_start_tries_max_k = 2;
  // The last of those tries partitions the graph with edges priced for km1
  // (graph_with_km1_prices: a vertex's edges together weigh about what its one net costs), not
  // with unit edges: a start of another kind, ranked with the others by its column-net km1.
  // Unit edge weights make the edge cut avoid cutting many edges of one vertex, which km1
  // charges once. 21 shared graphs at k = 2, seed 0, 2 threads: 0.9706x the volume
  // (dblp-2010 16329 -> 15918, ca-astroph 7675 -> 6876), docs/hypergraph.md (`hgbest8`). The
  // priced copy of the graph lives while the tries run: 12 B per directed edge, about 3x the
  // column-net model's pin array, which is the whole of issue #20's memory bound for a run. So
  // it is made only while it is small in absolute terms, at most graph_start_priced_max_bytes
  // (16 MiB, about 1.3M directed edges); above, the try keeps unit edges (cornell5 and
  // dblp-2010 would peak 1.68x / 1.59x higher at k = 2 with it, for 0.9966x / 0.9748x the
  // volume; cnr-2000 and uk-2007-05-100k's copies take about 68 MB).
  bool graph_start_priced_try = true;
  std::size_t graph_start_priced_max_bytes = std::size_t{16} << 20;
  CoarseningContext coarsening;
  InitialContext initial;
  RefinementContext refinement;
  BottleneckContext bottleneck;
  Timer* timer = nullptr; // phases of the top level; nested runs (bisections) leave it null
  // The top level's input, when its owner lets a cycle pack its pins while coarser levels are
  // worked on (coarsening.h; the column-net model lent by the graph); else null.
  Hypergraph* parkable_input = nullptr;
};

// The preset the options name (presets are data, see context.cc) with the run's k, epsilon,
// seed, objective and --flows.
HgContext make_context(const PartitionOptions& options);

} // namespace gnnpart::hg
