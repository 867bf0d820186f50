#pragma once
// Distributed input: every rank reads only its share of the file and the edges are routed to
// the ranks owning their endpoints, under vertex ranges balanced by degree. Plain edge lists and
// METIS files are split by byte ranges (a line belongs to the rank its first byte falls in;
// line numbers for errors come from a prefix count of newlines); binary edge streams
// (`gnnpart generate -o x.bin`) by record offset; gzip input cannot be split, so rank 0
// inflates it and scatters it in chunks of whole lines. Malformed input throws on the rank
// holding the first bad line the same InputError "FILE:LINE: ..." as gnnpart's readers, and
// PeerFailure on the others. Collective.
#include <string>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"
#include "io/graph_io.h"

namespace gnnpart::distributed {

DistGraph read_distributed_graph(const Comm& comm, const std::string& path,
                                 const io::ReadOptions& options);

// Degree-balanced ranges: vertex u weighs deg(u) + 1; rank r gets the vertices whose weight
// prefix falls into [r, r + 1) * total / P. Returns the new vtxdist. Collective.
std::vector<std::uint64_t> degree_balanced_ranges(const Comm& comm, const DistGraph& graph);

// Moves the graph to the ranges of vtxdist. Collective.
DistGraph redistribute(const Comm& comm, const DistGraph& graph,
                       std::vector<std::uint64_t> vtxdist);

} // namespace gnnpart::distributed
