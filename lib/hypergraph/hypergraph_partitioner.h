#pragma once
// Public entry of lib/hypergraph: the GCN communication models (column-net, stochastic), the
// mini-batch volume estimator, and the parallel multilevel hypergraph partitioner.
//
//   Hypergraph h = build_column_net(graph, ColumnNetWeights::kDegree);
//   Partition p = partition_hypergraph(h, options);   // km1 of p on h = comm volume on graph
//
// partition_hypergraph returns k non-empty blocks (when n >= k) with every block within
// max_block_weight(total of constraint c, k, epsilon) for every constraint c, or throws
// InfeasibleBalance. Same seed and thread count give the same partition.
#include <vector>

#include "core/graph.h"
#include "core/hypergraph.h"
#include "core/options.h"
#include "core/partition.h"
#include "hypergraph/column_net.h"
#include "hypergraph/stochastic_model.h"

namespace gnnpart {

namespace hg {
struct EpochInput; // bottleneck_refiner.h
struct HgContext;  // context.h

// The edge-cut partition that starts the column-net model's V-cycles, of `graph` (unit edge
// weights, the model's vertex weights): at k <= ctx.graph_start_tries_max_k the lowest-volume of
// ctx.graph_start_tries tries, side by side (the last one priced for km1 where
// ctx.graph_start_priced_try and the copy fits ctx.graph_start_priced_max_bytes), else one.
Partition best_graph_start(const CsrGraph& graph, const PartitionOptions& options,
                           const HgContext& ctx);
} // namespace hg

// options.objective is taken as given: kKm1 (or kVolume, its graph-side name) = connectivity - 1,
// kCut = cut-net, kSoed = sum of external degrees. PartitionOptions defaults to kCut (the graph
// model's default), so callers of the hypergraph models set kKm1 themselves (the CLI does).
// options.preset: fast / default / strong (initial-partitioning tries, FM effort, V-cycles).
// kMaxVolume / kEpoch need net owners, which only the column-net model has: InvalidParameter.
Partition partition_hypergraph(const Hypergraph& hypergraph, const PartitionOptions& options);

// The column-net model of `graph` (column_net = build_column_net(graph, ...)) with objective
// km1: the graph partitioner's edge-cut partition under the model's vertex weights, improved by
// V-cycles on the hypergraph (fast preset: FM on the input level only). Measured on six shared
// graphs at k = 8 and 32: 0.8283x METIS's volume in 13.0 s of CPU against 0.8324x in about 30 s
// for partition_hypergraph on the model. kMaxVolume / kEpoch: that km1 partition, then the
// bottleneck refinement of bottleneck_refiner.h (kEpoch needs `epoch`, else InvalidParameter).
// Other objectives go to partition_hypergraph.
Partition partition_column_net(const CsrGraph& graph, const Hypergraph& column_net,
                               const PartitionOptions& options,
                               const hg::EpochInput* epoch = nullptr);

// The same for a graph the caller lends, with the model of `weights`: the graph partitioner runs
// on `graph` itself (its weights swapped for the model's meanwhile), then the graph's own arrays
// become the model for the V-cycles (column_net_in_place.h), so the graph and a copy of it as
// the model are never alive together. `graph` is given back unchanged, also when this throws.
// The same partition as partition_column_net(graph, build_column_net(graph, weights), options).
// kMaxVolume builds the model as a copy (its refiner needs the graph beside it); kEpoch needs
// the overload above with an EpochInput. model_imbalance (if not null) receives the imbalance
// of the model's vertex weights.
Partition partition_column_net(CsrGraph& graph, ColumnNetWeights weights,
                               const PartitionOptions& options,
                               std::vector<double>* model_imbalance = nullptr);

// Objective value of a partition (km1, cut or soed; kVolume means km1; kMaxVolume: the largest
// per-block send + receive volume, for a column-net model only; not kEpoch).
Weight hypergraph_objective(const Hypergraph& hypergraph, const Partition& partition,
                            Objective objective);

} // namespace gnnpart
