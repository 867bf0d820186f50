#pragma once
// The own multilevel engine with its context given: for engines that run it as a step of their
// own (the hypergraph engine's graph start) and need a setting their callers cannot name.
#include <span>

#include "core/graph.h"
#include "core/options.h"
#include "core/partition.h"
#include "partition/multilevel/context.h"

namespace gnnpart {

// partition_graph_multilevel (partitioner.h) with run_ctx in place of create_context(options);
// options still give k, epsilon, the seed, the threads and the objective.
Partition partition_graph_multilevel(const CsrGraph& graph, const PartitionOptions& options,
                                     ml::MultilevelContext run_ctx,
                                     std::span<const BlockID> fixed = {});

} // namespace gnnpart
