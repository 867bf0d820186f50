#pragma once
// Internals shared by the edge partitioners (not part of the public streaming API).
#include <vector>

#include "streaming/edge_partitioner.h"

namespace gnnpart::streaming {

// One pass: the degree of every vertex (self loops counted once); fixes stream.num_nodes().
std::vector<NodeID> count_degrees(EdgeStream& stream, ProgressMeter* progress);

// 2PS-L: degrees, streaming clustering (clusters capped at volume 2m/k), clusters mapped to
// blocks by decreasing volume onto the lightest block, then each edge goes to the block of its
// endpoints' clusters when they agree, else to the better of the two by an HDRF-like score.
EdgePartitionMetrics run_two_phase(EdgeStream& stream, const StreamOptions& options,
                                   const EdgeBlockSink& sink, ProgressMeter* progress);

} // namespace gnnpart::streaming
