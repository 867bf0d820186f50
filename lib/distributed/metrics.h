#pragma once
// gnnpart's graph metrics (core/metrics.h, evalpart's definitions) of a distributed partition:
// every rank counts its owned vertices, the sums are reduced. Collective; every rank gets them.
#include "core/metrics.h"
#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

GraphMetrics compute_distributed_metrics(const Comm& comm, const DistGraph& graph,
                                         const std::vector<BlockID>& blocks, BlockID k);

} // namespace gnnpart::distributed
