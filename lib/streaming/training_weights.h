#pragma once
// Mini-batch traffic weights for the volume score. With T training vertices and mini-batches of
// B targets, the column net of v ({v} and N(v)) is needed by a batch when the batch holds one of
// its t(v) training pins: weight 1 - (1 - B/T)^t(v) (minibatch_net_weight in scoring.h).
// Computed in one pass over the adjacency stream; 4 bytes per vertex plus an n-bit train set.
#include <string>
#include <vector>

#include "core/types.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

// One vertex id per line ('#' / '%' comments, blank lines ignored), plain or gzip; every id
// must be < n. Throws InputError "FILE:LINE: ...".
std::vector<NodeID> read_training_ids(const std::string& path, NodeID n);

std::vector<float> minibatch_net_weights(VertexStream& stream, const std::vector<NodeID>& train,
                                         std::uint64_t batch_size);

} // namespace gnnpart::streaming
