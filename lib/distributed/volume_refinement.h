#pragma once
// Distributed greedy refinement of the communication volume sum_u (lambda(u) - 1), lambda(u) =
// the distinct blocks in {u} and N(u) (evalpart's comm_volume), for `--objective volume` on the
// finest level, as the shared-memory engine's volume_refiner.h: every vertex, owned or ghost,
// has the counts of its closed neighbourhood per block (a list of at most min(deg + 1, k)
// entries), so the exact volume change of moving u from a to b is
//   sum over w in N[u] of [count_w(b) == 0] - [count_w(a) == 1].
// Label propagation in batches as refine(): a vertex takes its best strictly improving move
// within the balance rules of refine() (never over the bound, never emptying a block). After a
// batch the moved vertices' blocks go to the ghost copies, the owners update the counts of
// their vertices next to moved ghosts, and send the new counts of every changed vertex to the
// ranks holding it as a ghost, so every batch starts from exact counts. Moves inside a batch
// see the other ranks' moves of that batch only after it, so a batch's volume change is exact
// per rank and may differ slightly in total; the pass never keeps a round that raised the
// global volume (it stops there). Memory: 8 bytes per list entry (at most 8 per owned and
// ghost vertex per incident entry, k per vertex), 4 per ghost entry for the reverse adjacency.
// Deterministic for the same seed and P.
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// blocks spans owned and ghost vertices (ghosts current on entry and on return). Returns the
// communication volume it removed (global). Collective.
std::uint64_t volume_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx,
                            std::vector<BlockID>& blocks);

} // namespace gnnpart::distributed
