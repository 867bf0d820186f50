#pragma once
// Buffered streaming vertex partitioning in the style of HeiStream / BuffCut: vertices of degree
// above high_degree_factor x the average are placed at once by Fennel; the others wait in a
// priority buffer ordered by the share of their neighbours already assigned; the top of a full
// buffer moves into the current batch, and each full batch becomes a BatchModel (batch vertices
// plus one fixed anchor per block) solved by solve_batch_locally. Further passes (--passes)
// restream with Fennel starting from the buffered result. Blocks never exceed
// max_block_weight(n, k, epsilon). Memory: 8 bytes per vertex plus the buffer and the batch.
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
