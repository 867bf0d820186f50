#pragma once
// Buffered streaming vertex partitioning in the style of HeiStream / BuffCut: vertices of degree
// above high_degree_factor x the average are placed at once by Fennel; the others wait in a
// priority buffer ordered by the share of their neighbours already assigned or in the batch being
// built (ties: arrival order); the top of a full buffer moves into the batch, so batches grow
// along the graph's structure, and each full batch becomes a BatchModel (batch vertices plus one
// anchor per block) solved by the multilevel engine with the anchors as fixed vertices
// (solve_batch_multilevel; solve_batch_locally as fallback or with BatchSolver::kLocal).
// Further passes (--passes) restream in batches of consecutive vertices re-solved with every other
// vertex as an anchor (restream_batches; the cut never grows). Blocks never
// exceed max_block_weight(n, k, epsilon). Memory: 8 bytes per vertex plus the buffer and the batch.
#include <span>

#include "core/partition.h"
#include "streaming/stream_options.h"
#include "streaming/vertex_partitioner.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

class ProgressMeter;

Partition stream_partition_buffered(VertexStream& stream, const StreamOptions& options,
                                    std::span<const float> net_weights = {},
                                    ProgressMeter* progress = nullptr,
                                    VertexStreamStats* stats = nullptr);

} // namespace gnnpart::streaming
