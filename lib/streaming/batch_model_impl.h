#pragma once
// Template body of build_batch_model (included by batch_model.h).
#include <algorithm>

namespace gnnpart::streaming {

template <typename NeighborsOf, typename LocalOf>
BatchModel build_batch_model(std::span<const NodeID> vertices, NeighborsOf&& neighbors_of,
                             LocalOf&& local_of, std::span<const BlockID> blocks,
                             std::span<const Weight> block_weights) {
  const NodeID b = static_cast<NodeID>(vertices.size());
  const BlockID k = static_cast<BlockID>(block_weights.size());
  const NodeID total = b + k;
  // Batch-batch edges and batch-anchor edges, aggregated per pair.
  std::vector<EdgeID> offsets(total + 1, 0);
  std::vector<NodeID> targets;
  std::vector<Weight> weights;
  std::vector<Weight> anchor_count(k, 0);
  std::vector<BlockID> touched;
  // Pass 1: rows of batch vertices (anchors appended after, from the reverse edges).
  std::vector<std::pair<NodeID, Weight>> reverse; // (batch vertex, weight) per anchor edge
  std::vector<BlockID> reverse_block;
  for (NodeID i = 0; i < b; ++i) {
    for (const NodeID v : neighbors_of(i)) {
      const NodeID local = local_of(v);
      if (local != kInvalidNodeID) {
        if (local != i) {
          targets.push_back(local);
          weights.push_back(1);
        }
        continue;
      }
      const BlockID block = blocks[v];
      if (block == kInvalidBlockID)
        continue;
      if (anchor_count[block]++ == 0)
        touched.push_back(block);
    }
    for (const BlockID block : touched) {
      targets.push_back(b + block);
      weights.push_back(anchor_count[block]);
      reverse.push_back({i, anchor_count[block]});
      reverse_block.push_back(block);
      anchor_count[block] = 0;
    }
    touched.clear();
    offsets[i + 1] = targets.size();
  }
  // Anchor rows: counting sort of the reverse edges by block.
  std::vector<EdgeID> anchor_degree(k + 1, 0);
  for (const BlockID block : reverse_block)
    ++anchor_degree[block + 1];
  for (BlockID block = 0; block < k; ++block)
    anchor_degree[block + 1] += anchor_degree[block];
  const EdgeID base = targets.size();
  targets.resize(base + reverse.size());
  weights.resize(base + reverse.size());
  std::vector<EdgeID> fill(anchor_degree.begin(), anchor_degree.end() - 1);
  for (std::size_t r = 0; r < reverse.size(); ++r) {
    const EdgeID slot = base + fill[reverse_block[r]]++;
    targets[slot] = reverse[r].first;
    weights[slot] = reverse[r].second;
  }
  for (BlockID block = 0; block < k; ++block)
    offsets[b + block + 1] = base + anchor_degree[block + 1];
  std::vector<Weight> vertex_weights(total, 1);
  for (BlockID block = 0; block < k; ++block)
    vertex_weights[b + block] = block_weights[block];
  BatchModel model{CsrGraph(std::move(offsets), std::move(targets), std::move(weights), 1,
                            std::move(vertex_weights)),
                   b, std::vector<NodeID>(vertices.begin(), vertices.end())};
  return model;
}

} // namespace gnnpart::streaming
