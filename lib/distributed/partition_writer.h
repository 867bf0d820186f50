#pragma once
// The partition file in gpmetis convention (line i = block of vertex i) written collectively
// with MPI-IO: each rank formats its own range, a prefix sum of the byte counts gives its file
// offset. Written to a temporary name and put in place by rank 0 once every rank succeeded
// (io::replace_file: an existing output is swapped out, as by gnnpart's writers), so a failed
// run leaves no partial file. A device, a FIFO or "-" / /dev/stdout is written directly by rank
// 0 in rank order, each rank's text sent in bounded chunks (never renamed over). Collective.
#include <string>
#include <vector>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

void write_distributed_partition(const Comm& comm, const DistGraph& graph,
                                 const std::vector<BlockID>& blocks, const std::string& path);

} // namespace gnnpart::distributed
