#pragma once
// Refinement for the bottleneck objectives of the column-net model (--objective max-volume and
// epoch): after the km1 run, moves that lower the largest per-block send + receive volume, or
// the epoch model's predicted time (lib/cost), while the total volume stays within
// ctx.bottleneck.total_budget times the start's and every block within its weight limit.
//
// Rounds: each names the hot blocks (max-volume: volume above the round's target, (1 - step)
// times the current maximum; epoch: ranks busy at least (1 - hot_fraction) times the busiest
// one's time), prices the best move of every boundary vertex whose nets touch a hot block
// (parallel, one slot per vertex), and takes moves best first from a priority queue, each
// re-priced exactly before it is taken (lazy greedy). Gain: max-volume: the decrease of the
// volume above the target summed over blocks, no block rising above the round's maximum, plus
// ctx.bottleneck.spread_weight times the decrease of the volume above the average block volume,
// minus the total's increase at a price that grows with the share of the budget spent
// (ctx.bottleneck.total_price); epoch: the decrease of the predicted epoch. Ties: smaller km1
// increase, then vertex and block id. Like FM, a round takes the best move even when it does not
// pay, goes on max_moves_without_improvement moves past its best state and returns to it (wing, k =
// 32: the largest volume 0.935x the km1 start's instead of 0.949x without). A round's moves may
// first fill blocks up to relaxed_slack over their limit; then moves out of the overloaded blocks
// (least harm first, to a block the vertex's nets touch or the lightest) restore the balance,
// and the round is kept only if balanced and better, else run again within the limits. The
// relaxed rounds matter where the km1 partition's blocks are full (ca-astroph, k = 32: 0.583x
// instead of 0.815x with strict rounds, before the FM tail; 0.543x with it).
// Levels: the rounds first move whole clusters of ctx.bottleneck.unit_levels coarser levels
// (move_units.h; clusters inside the start's blocks, coarsest first, each move priced exactly
// on the input), then single vertices: the bottleneck gain at every level of a V-cycle.
// Cycles: up to ctx.bottleneck.cycles such V-cycles, each on clusters of the current blocks
// drawn with a new seed; the next runs only while the last lowered the maximum (epoch) by at
// least ctx.bottleneck.cycle_min_gain of it (with 0: lowered it, or kept it and lowered the
// total).
// Cost (max-volume): a unit's moves to every block are priced in one pass over its nets
// (BlockVolumes::price_all_targets); an improving round prices only the vertices of hot blocks
// and the pins of the nets they own, the only moves that can lower a hot block; a regaining
// round only units with a net that leaves their block. Work = nets priced; a level stops when
// its round ends past ctx.bottleneck.work_budget / (levels + 1) times the input's pins, so a
// V-cycle prices about work_budget times the pins.
// Regain (max-volume): once the total has spent ctx.bottleneck.regain_fraction of its budget's
// headroom, each round is followed by moves that lower the total and raise no block above the
// round's target, so that later rounds can spend the budget again.
// The result never has a larger maximum (or epoch) than the start, and the same input gives
// the same output whatever the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "core/block_limits.h"
#include "cost/epoch_model.h"
#include "cost/profile.h"
#include "hypergraph/context.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// The epoch objective's input: the machine profile and the trained model's shape.
struct EpochInput {
  cost::CostProfile profile;
  cost::GcnShape shape;
};

struct BottleneckStats {
  Weight start_max_volume = 0;
  Weight start_total = 0; // km1 of the start
  Weight max_volume = 0;
  Weight total = 0;
  double start_epoch_seconds = 0; // epoch objective only
  double epoch_seconds = 0;
  std::uint64_t moves = 0;
  int rounds = 0;
  int cycles = 0;   // the refiner's V-cycles run (ctx.bottleneck.cycles at most per start)
  int restarts = 0; // km1 V-cycles + refiner runs after the first (ctx.bottleneck.km1_vcycles)
  int starts = 1;   // max-volume: the starts refined (the km1 partition and multilevel_start.h's)
  // Max-volume: nets priced (each unit's nets, once per pricing), the measure that
  // ctx.bottleneck.work_budget bounds.
  std::uint64_t work = 0;
  // Every block's send and receive volume as the refiner tracked them, for the partition it
  // left (tests check them against the written partition).
  std::vector<Weight> send, recv;
};

// ctx.objective: kMaxVolume, or kEpoch with `epoch` given (else InvalidParameter). owners[e]:
// the pin owning net e (column-net model: e). phg must be balanced under max_weights. The total
// volume stays at most ctx.bottleneck.total_budget times phg's.
// Max-volume, then ctx.bottleneck.km1_vcycles restarts: a km1 V-cycle of the engine from the
// result (it lowers the total that the moves spent), the refiner again from there within the
// same budget (total_budget times phg's start total). Then the same from further starts
// (ctx.bottleneck.degree_graph_epsilons: the first degree-balanced graph start within the
// budget; volume_bisection_epsilons: the first volume-aware recursive bisection within it;
// multilevel_start, degree_start_epsilon; multilevel_start.h) within that budget. The
// best result (maximum, then total) is left in phg.
BottleneckStats bottleneck_refine(PartitionedHypergraph& phg, std::span<const NodeID> owners,
                                  const HgContext& ctx, const BlockLimits& limits,
                                  const EpochInput* epoch);

} // namespace gnnpart::hg
