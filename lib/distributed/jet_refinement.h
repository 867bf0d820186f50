#pragma once
// A distributed Jet pass (Gilbert et al., "Jet: Multilevel Graph Partitioning on GPUs", 2023),
// the stronger cut refinement after label propagation. Each iteration:
//   1. every unlocked owned vertex picks its best other block; it is a candidate if the gain
//      is at least -floor(c * its connection to its own block) (c: ctx.jet_negative_fine on
//      the finest level, ctx.jet_negative_coarse above), so moves that lose a little are tried;
//   2. the candidates' (target, gain) go to the ranks holding them as ghosts;
//   3. afterburner: each candidate recomputes its gain as if every neighbouring candidate of
//      higher priority (larger gain, then smaller global id; the same order on every rank) had
//      moved, and moves only if that gain is not negative; the movers are locked for the next
//      iteration;
//   4. the distributed balancer (rebalance) brings the blocks back within the bound;
//   5. the global (overload, cut) is compared with the best seen; the best partition is kept.
// Levels with fewer than ctx.jet_min_block_vertices vertices per block are left alone.
// Stops after ctx.jet_rounds iterations or ctx.jet_patience iterations without a better one, and
// returns the best (so never a worse or less balanced partition than it started from).
// Deterministic for the same seed and P.
#include <cstdint>
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

struct JetResult {
  Weight cut_gain = 0;             // weighted cut removed (negative: an overloaded start balanced)
  std::uint64_t balance_moves = 0; // vertices its balancer calls moved, all ranks
};

// blocks spans owned and ghost vertices (ghosts current on entry and on return). Collective.
JetResult jet_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                     std::vector<BlockID>& blocks);

} // namespace gnnpart::distributed
