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

// chunk_items: edges routed per round from all ranks together (each rank parses text in pieces
// of 16 bytes per item and reads binary input in blocks of chunk_items / P records); the graph
// does not depend on it.
DistGraph read_distributed_graph(const Comm& comm, const std::string& path,
                                 const io::ReadOptions& options, std::uint64_t chunk_items);

} // namespace gnnpart::distributed
