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

} // namespace gnnpart::distributed
