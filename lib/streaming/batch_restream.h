#pragma once
// A restreaming pass of buffered streaming (HeiStream's restreaming): every vertex already has a
// block, so the model of a batch of consecutive vertices sees all its neighbours outside the
// batch as anchors, and the blocks' weights without the batch. The engine re-solves the batch
// (solve_batch_multilevel); its blocks replace the current ones, after label propagation on the
// current ones, only when they cut less weight in the model. The model holds every edge of the
// batch's vertices, so a pass never raises the edge cut, and every block stays within
// max_block_weight(n, k, epsilon). Memory: the batch's neighbour lists: batch_vertices vertices,
// closed early when they reach 2 x batch_vertices x the average degree entries (a high-degree
// vertex still fits: at most n more), so O(n) like the first pass.
#include <cstdint>
#include <vector>

#include "core/types.h"
#include "streaming/stream_options.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

struct RestreamCounts {
  std::uint64_t batches = 0;
  std::uint64_t fallbacks = 0; // batches the engine failed on (label propagation only)
  std::uint64_t improved = 0;  // batches whose engine solution replaced the current blocks
};

// blocks: one block per vertex (none kInvalidBlockID), updated in place. pass: 1 for the first
// restreaming pass (seeds differ per pass and batch).
RestreamCounts restream_batches(VertexStream& stream, const StreamOptions& options, int pass,
                                std::vector<BlockID>& blocks);

} // namespace gnnpart::streaming
