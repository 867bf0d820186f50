#include "partition/multilevel/partitioned_graph.h"

#include <atomic>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "core/partition.h"

namespace gnnpart::ml {

PartitionedGraph::PartitionedGraph(const CsrGraph& graph, BlockID k, std::vector<BlockID> blocks)
    : graph_(&graph), k_(k), ncon_(graph.ncon()), blocks_(std::move(blocks)) {
  // Integer sums per range, added up: the same for any thread count.
  const std::size_t size = static_cast<std::size_t>(k) * ncon_;
  block_weights_ = tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, graph.num_nodes(), 1 << 14), std::vector<Weight>(size, 0),
      [&](const tbb::blocked_range<NodeID>& r, std::vector<Weight> sums) {
        if (ncon_ == 1) {
          // One constraint (every level of a plain run): raw arrays in locals, no per-vertex
          // test for unit weights (the generic loop was about 24 instructions a vertex).
          const BlockID* const block = blocks_.data();
          Weight* const sum = sums.data();
          if (graph.has_vertex_weights()) {
            const Weight* const weight = graph.vertex_weights().data();
            for (NodeID u = r.begin(); u != r.end(); ++u)
              sum[block[u]] += weight[u];
          } else {
            for (NodeID u = r.begin(); u != r.end(); ++u)
              ++sum[block[u]];
          }
          return sums;
        }
        for (NodeID u = r.begin(); u != r.end(); ++u)
          for (int c = 0; c < ncon_; ++c)
            sums[static_cast<std::size_t>(blocks_[u]) * ncon_ + c] += graph.vertex_weight(u, c);
        return sums;
      },
      [](std::vector<Weight> a, const std::vector<Weight>& b) {
        for (std::size_t i = 0; i < a.size(); ++i)
          a[i] += b[i];
        return a;
      });
}

bool PartitionedGraph::overloaded(BlockID b, const BlockLimits& limits) const {
  for (int c = 0; c < ncon_; ++c)
    if (block_weight(b, c) > limits.max(b, c))
      return true;
  return false;
}

bool PartitionedGraph::balanced(const BlockLimits& limits) const {
  for (BlockID b = 0; b < k_; ++b)
    if (overloaded(b, limits))
      return false;
  return true;
}

bool PartitionedGraph::try_move(NodeID u, BlockID to, const BlockLimits& limits) {
  const BlockID from = blocks_[u];
  if (from == to)
    return true;
  if (is_fixed(u))
    return false;
  // Reserve the weight constraint by constraint; undo the reserved part on failure.
  int reserved = 0;
  bool ok = true;
  for (; reserved < ncon_; ++reserved) {
    const Weight w = graph_->vertex_weight(u, reserved);
    if (w == 0)
      continue;
    std::atomic_ref<Weight> target(block_weights_[static_cast<std::size_t>(to) * ncon_ + reserved]);
    Weight current = target.load(std::memory_order_relaxed);
    const Weight bound = limits.max(to, reserved);
    bool done = false;
    while (current + w <= bound) {
      if (target.compare_exchange_weak(current, current + w, std::memory_order_relaxed)) {
        done = true;
        break;
      }
    }
    if (!done) {
      ok = false;
      break;
    }
  }
  if (!ok) {
    for (int c = 0; c < reserved; ++c) {
      const Weight w = graph_->vertex_weight(u, c);
      std::atomic_ref<Weight>(block_weights_[static_cast<std::size_t>(to) * ncon_ + c])
          .fetch_sub(w, std::memory_order_relaxed);
    }
    return false;
  }
  for (int c = 0; c < ncon_; ++c) {
    const Weight w = graph_->vertex_weight(u, c);
    std::atomic_ref<Weight>(block_weights_[static_cast<std::size_t>(from) * ncon_ + c])
        .fetch_sub(w, std::memory_order_relaxed);
  }
  blocks_[u] = to;
  return true;
}

void PartitionedGraph::move(NodeID u, BlockID to) {
  const BlockID from = blocks_[u];
  if (from == to)
    return;
  for (int c = 0; c < ncon_; ++c) {
    const Weight w = graph_->vertex_weight(u, c);
    block_weights_[static_cast<std::size_t>(from) * ncon_ + c] -= w;
    block_weights_[static_cast<std::size_t>(to) * ncon_ + c] += w;
  }
  blocks_[u] = to;
}

} // namespace gnnpart::ml
