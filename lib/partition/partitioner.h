#pragma once
// Entry point of graph-model partitioning: picks the algorithm of the options
// (multilevel or the METIS backend). The result always has k blocks, every vertex assigned, and
// every block within max_block_weight(total of constraint c, k, epsilon) for every constraint —
// or InfeasibleBalance is thrown, saying why.
#include <span>

#include "core/graph.h"
#include "core/options.h"
#include "core/partition.h"

namespace gnnpart {

Partition partition_graph(const CsrGraph& graph, const PartitionOptions& options);

// Own multilevel engine (lib/partition/multilevel/). fixed (empty: none) pins vertices:
// fixed[u] is the block u must end in, or kInvalidBlockID when u is free. Fixed vertices never
// move; InfeasibleBalance is thrown when the free ones cannot make every block fit.
Partition partition_graph_multilevel(const CsrGraph& graph, const PartitionOptions& options,
                                     std::span<const BlockID> fixed = {});

// METIS_PartGraphKway with ncon constraints, ufactor from epsilon and the seed; checks the
// return code and verifies the balance of the result itself.
Partition partition_graph_metis(const CsrGraph& graph, const PartitionOptions& options);

// Throws InfeasibleBalance when a single vertex is heavier than a block may be, for any
// constraint (so no partition can respect the bound).
void check_balance_feasible(const CsrGraph& graph, BlockID k, double epsilon);

} // namespace gnnpart
