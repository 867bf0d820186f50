#pragma once
// Configuration of one hypergraph partitioning run, nested by phase (KaMinPar style). Built
// once from PartitionOptions by make_context(); passed down as const&. Values that change per
// level or per subproblem (block weight limits) travel separately as max_weights spans.
#include <cstdint>

#include "core/options.h"
#include "core/types.h"

namespace gnnpart {

struct CoarseningContext {
  NodeID contraction_limit_multiplier = 160; // stop near 160 * k vertices
  // Larger nets are ignored when rating (the rating is 2-hop: |e|^2 per net). Measured against
  // 1000: Titan23 1.56x -> 1.41x the best known km1 (3 seeds), graphs the same volume in 14% less
  // time. 50 instead of 100: the same volume on 8 graphs x 4 k (0.9988x) in 5% less time, 45%
  // less on the dense social graphs (cornell5, mit8); ISPD98/Titan23 1.162x instead of 1.170x.
  NodeID max_rating_net_size = 50;
  double max_shrink_per_pass = 2.5;  // a pass stops at n / 2.5 clusters
  double min_shrink_per_pass = 1.01; // coarsening ends when a pass shrinks less
  int sub_rounds = 16;               // synchronous sub-rounds per clustering pass
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

struct RefinementContext {
  int vcycles = 0; // V-cycles after the first multilevel run (top level only)
  // Column-net model of a graph: V-cycles on the hypergraph that start from the graph
  // partitioner's edge-cut partition (instead of a multilevel run of the hypergraph).
  int graph_start_vcycles = 1;
  int lp_rounds = 2;
  int vcycle_lp_rounds = 0; // LP rounds in V-cycles: FM finds what LP would in a refined start
  int fm_rounds = 10;
  double fm_min_improvement = 0.002; // stop FM rounds improving less than this fraction
  // After strict FM, FM that may overload blocks by this fraction of their perfect weight,
  // then rebalancing; kept if better (0: off). Measured against off: graphs 0.8284x -> 0.8168x
  // METIS's volume (+24% CPU), ISPD98/Titan23 1.2174x -> 1.1855x the best known (+18%).
  double relaxed_fm_slack = 0.03;
  int fm_seeds_per_search = 8;
  Weight fm_min_seed_gain = 0; // searches start only from vertices with at least this gain
  NodeID fm_max_moves_without_improvement = 50;
  NodeID max_update_net_size = 1000; // pins of larger nets are not re-rated after a move
};

struct HgContext {
  BlockID k = 2;
  double epsilon = 0.03;
  std::uint64_t seed = 0;
  Objective objective = Objective::kKm1;
  CoarseningContext coarsening;
  InitialContext initial;
  RefinementContext refinement;
};

HgContext make_context(const PartitionOptions& options);

} // namespace gnnpart
