#pragma once
// Streaming edge partitioners (vertex-cut): every edge of the stream gets one block, reported
// to the sink batch by batch in stream order. HDRF (Petroni et al. 2015: partial degrees,
// replication + lambda * balance score), DBH (Xie et al. 2014: hash of the lower-degree end,
// after a degree pass) and 2PS-L (Mayer et al. 2022: degree pass, streaming clustering, cluster
// to block mapping, then HDRF-like scoring restricted to the two blocks of the endpoints'
// clusters). Blocks never exceed max_block_weight(m, k, epsilon) edges: DBH and 2PS-L count m
// first; HDRF counts it in an extra pass when the stream does not know it up front. Memory: replica bitsets (k bits per vertex) + 4 bytes (HDRF, DBH) or 16 bytes
// (2PS-L) per vertex.
#include <functional>
#include <span>

#include "core/metrics.h"
#include "streaming/edge_stream.h"
#include "streaming/stream_options.h"

namespace gnnpart::streaming {

class ProgressMeter;

using EdgeBlockSink = std::function<void(const EdgeBatch& edges, std::span<const BlockID> blocks)>;

// Returns replication factor, vertex copies, edges and copies per block and edge imbalance as
// compute_edge_partition_metrics defines them, gathered while streaming.
EdgePartitionMetrics stream_partition_edges(EdgeStream& stream, const StreamOptions& options,
                                            const EdgeBlockSink& sink,
                                            ProgressMeter* progress = nullptr);

// The DBH block of an edge given the endpoints' degrees (exposed for tests).
BlockID dbh_block(NodeID u, NodeID v, NodeID degree_u, NodeID degree_v, BlockID k,
                  std::uint64_t seed);

} // namespace gnnpart::streaming
