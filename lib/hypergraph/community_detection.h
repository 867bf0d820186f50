#pragma once
// Communities of a hypergraph that its coarsening must not merge across (Mt-KaHyPar's
// preprocessing): Louvain modularity maximisation on the star expansion, the bipartite graph with
// one node per vertex and one per net of at least 2 pins, and an edge of weight w(e) from net e
// to each of its pins (uniform: a large net is a node of large volume, which modularity's null
// model, vol(v) vol(C) / vol(G), already keeps from gluing its pins together; Mt-KaHyPar's
// "hybrid" rule also picks uniform weights for hypergraphs with at least 0.75 nets per vertex,
// which all of ISPD98/Titan23 have). Local moving, then contraction of the communities, level
// by level, while a level still moves nodes. The heavy-net rating of coarsening looks two hops
// around a vertex; the communities see the whole hypergraph's modular structure, so coarse levels
// no longer glue together the parts of different dense regions that a cut between them would
// separate. Sequential and seeded: the same communities for any thread count.
#include <cstdint>
#include <vector>

#include "core/hypergraph.h"
#include "core/types.h"
#include "hypergraph/context.h"

namespace gnnpart::hg {

// The community of every vertex, ids 0 .. *num_communities - 1.
std::vector<BlockID> detect_communities(const Hypergraph& hg, const CommunityContext& ctx,
                                        std::uint64_t seed, BlockID* num_communities);

} // namespace gnnpart::hg
