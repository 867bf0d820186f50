#pragma once
// Quality of a vertex partition computed in one more pass over an adjacency stream (O(n + k^2)
// memory): edge cut, communication volume sum_u (lambda(u) - 1), send/receive volumes, comm
// pairs, boundary vertices, block sizes and imbalance — the figures of evalpart.
#include "core/metrics.h"
#include "core/partition.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

class ProgressMeter;

GraphMetrics compute_stream_metrics(VertexStream& stream, const Partition& partition,
                                    ProgressMeter* progress = nullptr);

} // namespace gnnpart::streaming
