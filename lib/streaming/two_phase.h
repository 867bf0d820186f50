#pragma once
// Internals shared by the edge partitioners (not part of the public streaming API).
#include <vector>

#include "streaming/edge_partitioner.h"

namespace gnnpart::streaming {

// One pass: the degree of every vertex (self loops counted once); fixes stream.num_nodes().
std::vector<NodeID> count_degrees(EdgeStream& stream, ProgressMeter* progress);

// 2PS-L: degrees, streaming clustering (clusters capped at volume 2m/k), clusters mapped to
// blocks by decreasing volume onto the lightest block (u's preferred block), a pass counting
// for every vertex the share of its edges inside its preferred block, a pre-partitioning pass
// placing the edges whose ends share a preferred block (both ends with share >= 0.35), and a
// scoring pass for the rest: HDRF replication score on full degrees over the blocks holding
// either end plus both preferred blocks, a bonus for the preferred blocks, and a balance term
// relative to the hard cap. 4 + clustering_passes passes; n x (8 + k/8) bytes in the last two;
// k below 2^31 (InvalidParameter otherwise).
EdgePartitionMetrics run_two_phase(EdgeStream& stream, const StreamOptions& options,
                                   const EdgeBlockSink& sink, ProgressMeter* progress);

} // namespace gnnpart::streaming
