#pragma once
// The trainer layout of docs/layout.md (vertex layout, format version 1) written by the ranks
// themselves: block p is assembled and written by rank p mod P from the rows its owners send
// it, assignment.txt is written collectively, rank 0 writes layout.json from the blocks'
// counts. Built in DIR.tmp.XXXXXX and renamed into place, as `gnnpart layout` does; the arrays
// are the same as those `gnnpart layout` writes for the same partition. Collective.
#include <string>
#include <vector>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

struct LayoutNames {
  std::string graph;              // "graph" of the manifest
  std::string model = "graph";
  std::string objective = "cut";
};

void write_distributed_layout(const Comm& comm, const DistGraph& graph,
                              const std::vector<BlockID>& blocks, BlockID k,
                              const std::string& dir, const LayoutNames& names);

} // namespace gnnpart::distributed
