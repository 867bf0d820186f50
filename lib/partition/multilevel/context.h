#pragma once
// Settings of one multilevel run, nested like the phases they steer. Presets are data (one
// literal each in context.cc); nothing writes run-time state into a context. `timer`, owned by
// the caller, times the top level's phases (null: untimed).
#include <cstdint>
#include <vector>

#include "core/logging.h"
#include "core/options.h"
#include "core/timer.h"
#include "core/types.h"

namespace gnnpart::ml {

// How coarsening groups vertices.
enum class ClusteringAlgorithm {
  kLabelPropagation, // size-constrained label propagation (lp_clustering.h)
  kMatching,         // heavy-edge matching (matching.h)
  kAuto,             // matching unless hubs hold many arcs (matching_max_hub_share), else LP
};

struct CoarseningContext {
  ClusteringAlgorithm algorithm = ClusteringAlgorithm::kLabelPropagation;
  // kAuto: heavy-edge matching unless the hubs (vertices with more neighbours than
  // matching_max_degree) hold more than matching_max_hub_share of all arc ends. A matching gives
  // a hub one partner, and where hubs hold much of the graph (citation, social and web graphs:
  // 2.4-85% of the arc ends) their leaves stay single or pair blindly, while label propagation
  // puts a hub and its neighbourhood into one cluster. Where they hold a negligible share (a
  // mesh with one hub: 0.08%) the rest of the graph is matched as without them
  // (docs/generalisation.md: a rule on the maximum degree alone sent such meshes to LP).
  NodeID matching_max_degree = 32;
  double matching_max_hub_share = 0.01;
  int lp_rounds = 5;              // label-propagation rounds per level
  int batches_per_round = 8;      // sub-rounds; moves of a batch are applied in a fixed order
  NodeID contraction_limit = 160; // stop near contraction_limit * k vertices (C)
  // Clusters may also weigh up to this factor times W / (C * k) (METIS's bound, 0: off) beside
  // KaMinPar's eps * W / k', so graphs with few vertices per block still coarsen to C * k.
  double cluster_weight_factor = 0;
  double min_shrink = 0.05; // stop when a level shrinks by less than this fraction
  bool two_hop = true;      // cluster singletons that share a favourite cluster
  // Heavy-edge matching on a level without vertex or edge weights (the finest of a plain run):
  // METIS's random matching instead of proposal rounds (matching.h).
  bool random_unit_matching = false;
  int max_levels = 64;
};

struct InitialContext {
  int tries = 6;        // portfolio runs per bisection (greedy growing, BFS, random in turn)
  int deep_tries = 3;   // the same below the top two levels of recursive bisection
  int fm_passes = 4;    // 2-way FM passes after each try
  int fm_max_bad = 100; // 2-way FM stops after this many moves without improvement
  // Breadth-first sweeps that move the start of greedy and BFS growing to a far vertex (0: a
  // random start).
  int peripheral_sweeps = 0;
  // From this k on (0: never), deep multilevel (deep_multilevel.h) instead of recursive
  // bisection of the coarsest graph: coarsening goes on to 2 C vertices, and blocks are split
  // while uncoarsening. Top level only, without fixed vertices or a start partition (V-cycles
  // and buffered streaming keep recursive bisection).
  BlockID deep_min_k = 0;
};

// The refiners of one level, run in the order of RefinementContext::algorithms
// (refinement/refiners.cc turns each into its algorithm; a new refiner is one case there).
enum class Refiner {
  kRebalance,        // moves out of overloaded blocks (rebalancer.h)
  kLabelPropagation, // lp_rounds rounds of label propagation (lp_refiner.h)
  kFm,               // fm_passes passes of localized FM (fm_refiner.h, parallel_fm_refiner.h)
  kRelaxedFm,        // FM under limits raised by relaxed_fm_slack, kept if balanced and better
  kGreedy,           // greedy_passes passes of METIS's greedy k-way moves (greedy_refiner.h)
};

struct RefinementContext {
  std::vector<Refiner> algorithms = {Refiner::kRebalance, Refiner::kLabelPropagation, Refiner::kFm,
                                     Refiner::kRebalance, Refiner::kRelaxedFm};
  int lp_rounds = 3;
  int batches_per_round = 8;
  int fm_passes = 2;
  // With fm_min_pass_gain > 0, fm_passes is a maximum: passes stop once one gains less than
  // this fraction of the cut it started from (0: only a pass without gain stops them). No preset
  // sets it: on the generated graphs and the shared ones alike the second pass still gains 1-5%
  // of the cut, so it buys cut for time everywhere (docs/generalisation.md).
  double fm_min_pass_gain = 0;
  // A localized search stops after fm_max_bad non-improving moves, unless fm_walk_alpha > 0 and
  // the gains of those moves, as a random walk, may still recover their deficit
  // (S^2 < alpha * p * var); then it goes on, up to fm_walk_max_bad of them
  // (refinement/fm_stop_rule.h; 0: off).
  int fm_max_bad = 10;
  double fm_walk_alpha = 0;
  int fm_walk_max_bad = 20;
  int fm_seeds = 32; // boundary vertices that start one localized search together
  // Whether a move brings the neighbours in its target block into the search (they only lost
  // gain by it; fm_search.h). Off, a search rates about a third fewer vertices
  // (docs/generalisation.md).
  bool fm_expand_target = true;
  // Equal gains in a search's queue: a move into a lighter block first, then the vertex rated
  // last (fm_search.h). Off: the heap's structure decides (all but R-MAT of the generated suite
  // 0.9848x -> 0.9782x gpmetis's cut at partitioner seed 0; docs/generalisation.md).
  bool fm_tie_break = true;
  // Equal gains of two prefixes of a search: the one that leaves the block weights more even
  // (the lower sum of their squares, constraint 0) is the better, as a new best it restarts the
  // stopping rule's count, and a search may keep a prefix of gain 0 that only evens the blocks.
  // Strict FM leaves blocks at their limit; such a prefix makes the room that a later positive
  // move into that block needs (fm_search.h; docs/generalisation.md).
  bool fm_balance_ties = false;
  NodeID fm_max_degree = 2000; // larger vertices are not re-inserted into a running search
  // Parallel FM (parallel_fm_refiner.h) when the run has at least fm_parallel_min_threads
  // threads: the searches of a batch run in parallel on frozen views, then are applied in
  // order. Its result depends on the batch sizes, which depend on the threads only beyond
  // fm_batch_searches / 2 of them. Why not from 2 threads: on an idle 2-core machine it was
  // no faster than sequential FM at 2 threads (cnr-2000, uk-2007-05-100k, soc-brightkite,
  // dblp-2010, k = 32: 0.307-0.422 s against 0.309-0.359 s) and its colliding searches cost
  // 0.14-1.07% of cut there; sequential FM is the part of the run that does not scale, so it
  // caps the speedup at more threads (docs/graph.md).
  bool fm_parallel = false;
  int fm_parallel_min_threads = 4;
  int fm_batch_searches = 8; // at most max(this, 2 * threads) searches per batch
  int fm_min_batches = 64;   // and at least this many batches per pass (when it has enough)
  // Below fm_parallel_min_threads, with t >= 2 threads and k >= 2t: block-group FM
  // (group_fm_refiner.h), t groups of consecutive block ids refined at once, then the searches
  // between groups. Deterministic per thread count; 1 thread runs sequential FM.
  bool fm_block_groups = false;
  int volume_passes = 4; // greedy volume passes on the finest level (objective volume)
  int greedy_passes = 1; // passes of Refiner::kGreedy (each stops the list once it moves none)
  // After strict FM, FM under limits raised by this fraction, then rebalancing; kept only if
  // balanced and better (0: off).
  double relaxed_fm_slack = 0;
  int relaxed_fm_passes = 1;
  // After relaxed FM is kept: greedy_passes passes of Refiner::kGreedy on the level's gain cache,
  // which the rebalancing kept current. Relaxed FM ends with the rebalancer's forced moves (the
  // cheapest loss per unit of overload), and no refiner of the level looks at the moves they
  // open; on the input level nothing after them does (docs/generalisation.md).
  bool relaxed_fm_greedy = false;
};

struct MultilevelContext {
  BlockID k = 2;
  double epsilon = 0.03;
  std::uint64_t seed = 0;
  Objective objective = Objective::kCut;
  int vcycles = 0; // V-cycles after the first multilevel run (top level only)
  CoarseningContext coarsening;
  InitialContext initial;
  RefinementContext refinement;
  Logger logger;          // debug output only
  Timer* timer = nullptr; // phases of the top level; nested runs (bisections) leave it null
};

// The preset the options name (presets are data, see context.cc) with the run's k, epsilon,
// seed, objective and logger.
MultilevelContext create_context(const PartitionOptions& options);

} // namespace gnnpart::ml
