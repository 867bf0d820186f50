#pragma once
// The distributed multilevel cycle: uncoarsen(initial_partition(coarsen())). Coarsening by
// size-constrained label propagation and contraction until about C * k vertices remain; the
// coarsest graph is partitioned by the shared-memory engine on every rank (own seeds, the best
// wins); each level is refined by distributed label propagation, balanced, and projected.
// Same seed and same P give the same partition.
#include <cstdint>
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

struct DistPartition {
  std::vector<BlockID> blocks;     // of the owned vertices and of the ghosts (n_total entries)
  std::uint64_t balance_moves = 0; // vertices the balancer moved, all levels and ranks
  Weight jet_cut_gain = 0;         // weighted cut Jet removed on the finest level
  std::uint64_t volume_gain = 0;   // volume the distributed volume pass removed (objective volume)
  std::uint64_t gathered_levels = 0; // coarse levels refined as copies (gathered_refinement.h)
};

// Throws InfeasibleBalance (on every rank) when a vertex is heavier than a block may be or the
// bound cannot be met. Unless ctx.keep_levels, the adjacency of graph lives in a scratch file in
// ctx.temp_dir from its first clustering on (spilled_adjacency.h) and may still be there on
// return (graph.spilled): read its rows with RowReader, or take it back with
// restore_adjacency.
DistPartition partition_distributed(const Comm& comm, DistGraph& graph, const DistContext& ctx);

} // namespace gnnpart::distributed
