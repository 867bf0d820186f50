#pragma once
// Contraction of a distributed clustering into the next, coarser distributed graph. A cluster
// becomes a coarse vertex on the rank owning the vertex it is named after; coarse ids are
// numbered rank by rank (prefix sums), coarse edges are summed and sent all-to-all to the
// owners of their source, in rounds of about chunk_items fine edges from all ranks together
// that end at the same coarse id on every rank, so each round brings its owners complete rows,
// merged at once into a CSR of the merged size (one round held at a time; the coarse graph does
// not depend on the chunk size). The clustering is consumed: its arrays
// are freed (or reused for the coarse ids) before the coarse graph grows. Coarse edge weights
// are 32-bit when the fine graph's total edge weight fits (8 bytes per coarse entry, not 12).
#include <string>
#include <vector>

#include "distributed/clustering.h"
#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

struct Contraction {
  DistGraph coarse;
  std::vector<NodeID> coarse_of; // n_local: global coarse id of every owned fine vertex
};

Contraction contract(const Comm& comm, const DistGraph& graph, Clustering clustering,
                     std::uint64_t chunk_items);

// A coarse level can be freed and contracted again from its finer level and coarse_of: the same
// graph, array for array (the contraction is deterministic). What that needs besides them:
struct FreedLevel {
  std::vector<std::uint64_t> vtxdist;
  ParkedVector<Weight> vertex_weights; // of the owned coarse vertices, until the rows are built
};
// Frees the arrays of `coarse` (a level made by contract) and keeps what recontract needs (its
// vertex weights in a scratch file in dir). Throws SystemError.
FreedLevel free_level(DistGraph& coarse, const std::string& dir);
// Grows coarse_of (the owned vertices' coarse ids) into the coarse ids of the owned and ghost
// vertices, the ghosts' from their owners (as number_coarse_vertices gave them), so that the
// map is not held twice while the coarse graph is built. Collective.
void label_ghosts(const Comm& comm, const DistGraph& graph, std::vector<NodeID>& coarse_of);
// The level free_level took, rebuilt from its finer level and coarse_of as label_ghosts left
// it (the build reads the finer graph's offsets and rows, not its ghost ids), which is cut
// back to the owned vertices on return. Collective.
DistGraph recontract(const Comm& comm, const DistGraph& graph, std::vector<NodeID>& coarse_of,
                     FreedLevel freed, std::uint64_t chunk_items);

} // namespace gnnpart::distributed
