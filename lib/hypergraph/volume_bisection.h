#pragma once
// A volume-aware recursive bisection of the graph behind a column-net model (net u = {u} and
// u's neighbours), after Acer, Selvitopi and Aykanat's recursive-bisection formulations that
// balance the send volume: every part of the recursion is split by the graph engine (edge cut)
// under two constraints, the vertex weights and each vertex's share of the volume that the
// splits made so far already incur. A net cut by an earlier split stays cut, so that volume is
// known before the part is split again: its owner sends lambda - 1 rows, and every other part it
// touches receives one, shared among the net's pins there. Balancing it hands both halves of a
// part a share of the rows it already sends and receives, instead of leaving them with the side
// the min-cut split puts the dense part on. The first split has no volume yet; it balances
// every vertex's degree (the nets it is a pin of), the stand-in degree_graph_start uses.
#include <cstdint>
#include <vector>

#include "core/block_limits.h"
#include "core/hypergraph.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// Every vertex's volume under `parts` (a part id per vertex, below `num_parts`), in units of
// `scale`: the lambda - 1 rows its own net sends, plus for every net owned by another part, 1 /
// (the net's pins in its own part). hg: a column-net model (net e owned by vertex e).
std::vector<Weight> incurred_volumes(const Hypergraph& hg, std::span<const BlockID> parts,
                                     BlockID num_parts, Weight scale);

// k blocks by recursive splits (by the smallest prime factor of a part's block count, so 2 at
// k = 8 and 32), each balancing the vertex weights within (1 + ctx.epsilon)^(1 / splits) and the
// second constraint within about volume_imbalance (the graph engine has one epsilon: the
// second weights are raised by an offset as in degree_offset). hg: one constraint, a column-net
// model. Empty if a split could not be balanced. Not yet within `limits`: the caller's
// V-cycles and rebalancing see to that.
std::vector<BlockID> volume_bisection_partition(const Hypergraph& hg, const HgContext& ctx,
                                                const BlockLimits& limits, double volume_imbalance,
                                                std::uint64_t seed);

} // namespace gnnpart::hg
