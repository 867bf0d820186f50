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
#include "core/hypergraph.h"
#include "core/options.h"
#include "core/partition.h"
#include "hypergraph/column_net.h"
#include "hypergraph/stochastic_model.h"

namespace gnnpart {

// options.objective is taken as given: kKm1 (or kVolume, its graph-side name) = connectivity - 1,
// kCut = cut-net, kSoed = sum of external degrees. PartitionOptions defaults to kCut (the graph
// model's default), so callers of the hypergraph models set kKm1 themselves (the CLI does).
// options.preset: fast / default / strong (initial-partitioning tries, FM effort, V-cycles).
Partition partition_hypergraph(const Hypergraph& hypergraph, const PartitionOptions& options);

// Objective value of a partition (km1, cut or soed; kVolume means km1).
Weight hypergraph_objective(const Hypergraph& hypergraph, const Partition& partition,
                            Objective objective);

} // namespace gnnpart
