#pragma once
// Further starts for the max-volume refiner, independent of the km1 partition it starts from
// first (the graph partitioner's edge-cut partition and a km1 V-cycle). The engine's own
// multilevel run on the column-net model (recursive bisection on the coarsest level, km1
// refinement on every level), then km1 V-cycles as from a graph start. Its total is often below
// the km1 partition's (pubmed k = 8: 5278 against 5412), which lowers the average block volume
// 2 total / k under the refiner and leaves it more of its budget.
// With degree_epsilon > 0, the run balances a second constraint, every vertex's degree (the
// nets it is a pin of), within degree_epsilon: a block's send + receive volume grows with its
// vertices' pins on cut nets, and km1 packs a graph's dense part into few blocks (cheap in
// total, hot in those blocks), while here every bisection hands both halves a share of the
// pins. The V-cycles then run under the first constraint alone and lower the total that the
// second cost, from that layout.
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/graph.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// hg: one constraint. ctx: a km1 context (ctx.objective kKm1). The partition, balanced under
// `limits`, every block non-empty; empty if it could not be balanced.
std::vector<BlockID> multilevel_start(const Hypergraph& hg, const HgContext& ctx,
                                      const BlockLimits& limits, double degree_epsilon,
                                      std::uint64_t seed);

// The multilevel run alone (before the V-cycles) under both constraints: limits' first, and
// every block's degree sum at most max_block_weight(hg's pins, k, degree_epsilon).
std::vector<BlockID> degree_balanced_partition(const Hypergraph& hg, const HgContext& ctx,
                                               const BlockLimits& limits, double degree_epsilon,
                                               std::uint64_t seed);

// A start from the km1 run's own pipeline, an edge-cut partition of the graph behind hg (hg: a
// column-net model, net u = {u} and u's neighbours) followed by km1 V-cycles, whose graph
// partition balances every vertex's degree as a second constraint within about degree_epsilon
// (the graph engine has one epsilon for all constraints: every degree is raised by
// degree_offset, so that with the blocks' vertex counts at their share the degree sums may differ
// by about degree_epsilon of theirs). As multilevel_start with a degree constraint, the dense
// part is shared by the blocks, at the cost of a graph partition (ca-astroph k = 8: 0.5 s
// against 10.8 s for the multilevel run with flows). Empty if it cannot be balanced.
std::vector<BlockID> degree_graph_start(const Hypergraph& hg, const HgContext& ctx,
                                        const BlockLimits& limits, double degree_epsilon,
                                        std::uint64_t seed);

// The graph partition alone (before the V-cycles), balanced under both constraints of the
// graph engine: limits' epsilon on the vertex weights, and on degree + degree_offset.
std::vector<BlockID> degree_balanced_graph_partition(const Hypergraph& hg, const HgContext& ctx,
                                                     const BlockLimits& limits,
                                                     double degree_epsilon, std::uint64_t seed);

// As degree_graph_start, from volume_bisection_partition (volume_bisection.h) instead of the
// degree-balanced graph partition: the km1 V-cycles from its blocks, then no empty block and
// the balance of `limits`. Empty if it cannot be balanced.
std::vector<BlockID> volume_bisection_start(const Hypergraph& hg, const HgContext& ctx,
                                            const BlockLimits& limits, double volume_imbalance,
                                            std::uint64_t seed);

// The graph engine's edge-cut partition of `graph` into k blocks within epsilon (default preset,
// peripheral sweeps off as in the km1 run's graph start) on one thread: the graph engine's
// partition may depend on its thread count, and the starts built from it must not.
std::vector<BlockID> one_thread_graph_partition(const CsrGraph& graph, BlockID k, double epsilon,
                                                std::uint64_t seed);

// What degree_graph_start adds to every vertex's degree: (degree_epsilon / epsilon - 1) times
// hg's average degree (0 when degree_epsilon <= epsilon).
Weight degree_offset(const Hypergraph& hg, double epsilon, double degree_epsilon);

} // namespace gnnpart::hg