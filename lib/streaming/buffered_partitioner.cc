#include "streaming/buffered_partitioner.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "core/random.h"
#include "streaming/batch_model.h"
#include "streaming/batch_restream.h"
#include "streaming/block_loads.h"
#include "core/indexed_heap.h"
#include "streaming/progress.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

constexpr NodeID kInBatch = NodeID{1} << (sizeof(NodeID) * 8 - 1);

class BufferedPartitioner {
public:
  BufferedPartitioner(NodeID n, EdgeID m, const StreamOptions& options)
      : options_(options), k_(options.k), loads_(options.k),
        max_weight_(max_block_weight(n, options.k, options.epsilon)), blocks_(n, kInvalidBlockID),
        slot_of_(n, kInvalidNodeID), batch_capacity_(options.batch_vertices),
        buffer_capacity_(options.buffer_vertices > 0 ? options.buffer_vertices
                                                     : 2 * options.batch_vertices),
        heap_(buffer_capacity_), gain_(options.k, 0.0) {
    alpha_ = options.fennel_alpha > 0 ? options.fennel_alpha
                                      : fennel_alpha(n, static_cast<double>(m), options.k, 1.5);
    const double average = n > 0 ? 2.0 * static_cast<double>(m) / n : 0.0;
    high_degree_ = options.high_degree_factor * average;
    kept_capacity_ = static_cast<std::size_t>(std::max(16.0, 4.0 * average));
    slots_.resize(buffer_capacity_);
    slot_vertex_.assign(buffer_capacity_, kInvalidNodeID);
    for (std::uint32_t s = buffer_capacity_; s > 0; --s)
      free_slots_.push_back(s - 1);
    batch_adjacency_.resize(batch_capacity_);
  }

  void add(NodeID u, std::span<const NodeID> neighbors) {
    if (neighbors.empty() || static_cast<double>(neighbors.size()) > high_degree_) {
      place_directly(u, neighbors);
      return;
    }
    if (free_slots_.empty())
      evict();
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot].assign(neighbors.begin(), neighbors.end());
    slot_vertex_[slot] = u;
    slot_of_[u] = slot;
    NodeID placed = 0; // assigned or in the batch
    for (const NodeID v : neighbors) {
      const NodeID where = slot_of_[v];
      placed +=
          blocks_[v] != kInvalidBlockID || (where != kInvalidNodeID && (where & kInBatch) != 0) ? 1
                                                                                                : 0;
    }
    heap_.push(slot, static_cast<double>(placed) / static_cast<double>(neighbors.size()));
  }

  void finish() {
    while (!heap_.empty())
      evict();
    if (!batch_.empty())
      solve_batch();
  }

  std::vector<BlockID> take_blocks() { return std::move(blocks_); }

private:
  // Fennel for a vertex seen in full now.
  void place_directly(NodeID u, std::span<const NodeID> neighbors) {
    for (const NodeID v : neighbors) {
      const BlockID b = blocks_[v];
      if (b == kInvalidBlockID)
        continue;
      if (gain_[b] == 0.0)
        touched_.push_back(b);
      gain_[b] += 1.0;
    }
    BlockID best = loads_.lightest();
    double best_score = -fennel_penalty_15(static_cast<double>(loads_[best]), alpha_);
    for (const BlockID b : touched_) {
      const double gain = gain_[b];
      gain_[b] = 0.0;
      if (loads_[b] + 1 > max_weight_)
        continue;
      const double s = gain - fennel_penalty_15(static_cast<double>(loads_[b]), alpha_);
      if (s > best_score || (s == best_score && loads_[b] < loads_[best])) {
        best = b;
        best_score = s;
      }
    }
    touched_.clear();
    assign(u, best, neighbors);
  }

  void assign(NodeID u, BlockID b, std::span<const NodeID> neighbors) {
    blocks_[u] = b;
    loads_.add(b, 1);
    raise_buffered_neighbors(neighbors);
  }

  // A buffered vertex's priority is the share of its neighbours that are assigned or in the
  // batch being built, so batches grow along the graph's structure (BuffCut) even when the
  // stream order has no locality.
  void raise_buffered_neighbors(std::span<const NodeID> neighbors) {
    for (const NodeID v : neighbors) {
      const NodeID slot = slot_of_[v];
      if (slot == kInvalidNodeID || (slot & kInBatch) != 0)
        continue;
      const double degree = static_cast<double>(slots_[slot].size());
      heap_.update(slot, heap_.key(slot) + 1.0 / degree);
    }
  }

  void evict() {
    const std::uint32_t slot = heap_.pop();
    const NodeID u = slot_vertex_[slot];
    const NodeID local = static_cast<NodeID>(batch_.size());
    batch_.push_back(u);
    std::swap(batch_adjacency_[local], slots_[slot]);
    release(slots_[slot]);
    slot_vertex_[slot] = kInvalidNodeID;
    free_slots_.push_back(slot);
    slot_of_[u] = kInBatch | local;
    raise_buffered_neighbors(batch_adjacency_[local]);
    if (batch_.size() == batch_capacity_)
      solve_batch();
  }

  // Empties a neighbour list; one that grew far beyond the average degree gives its memory back,
  // so the buffer's footprint follows the average degree rather than the largest one seen.
  void release(std::vector<NodeID>& list) const {
    if (list.capacity() > kept_capacity_)
      std::vector<NodeID>().swap(list);
    else
      list.clear();
  }

  void solve_batch() {
    const BatchModel model = build_batch_model(
        std::span<const NodeID>(batch_),
        [&](NodeID i) { return std::span<const NodeID>(batch_adjacency_[i]); },
        [&](NodeID v) {
          const NodeID slot = slot_of_[v];
          return (slot != kInvalidNodeID && (slot & kInBatch) != 0) ? (slot & ~kInBatch)
                                                                    : kInvalidNodeID;
        },
        std::span<const BlockID>(blocks_), std::span<const Weight>(loads_.weights()));
    std::vector<BlockID> part;
    if (options_.batch_solver == BatchSolver::kMultilevel) {
      part = solve_batch_multilevel(model, k_, max_weight_, options_.epsilon,
                                    derive_seed(options_.seed, batches_),
                                    options_.batch_refinement_rounds);
      if (part.empty())
        ++fallbacks_;
    }
    if (part.empty()) {
      part = solve_batch_locally(model, k_, max_weight_, alpha_, options_.batch_refinement_rounds);
    }
    ++batches_;
    for (NodeID i = 0; i < model.batch_size; ++i)
      slot_of_[batch_[i]] = kInvalidNodeID;
    for (NodeID i = 0; i < model.batch_size; ++i) {
      blocks_[batch_[i]] = part[i]; // its buffered neighbours counted it when it joined the batch
      loads_.add(part[i], 1);
      release(batch_adjacency_[i]);
    }
    batch_.clear();
  }

  const StreamOptions& options_;
  BlockID k_;
  BlockLoads loads_;
  Weight max_weight_;
  std::vector<BlockID> blocks_;
  std::vector<NodeID> slot_of_; // buffer slot, kInBatch | batch index, or kInvalidNodeID
  NodeID batch_capacity_;
  NodeID buffer_capacity_;
  IndexedHeap<double, /*kFifoTies=*/true> heap_; // ties leave in arrival order
  std::vector<std::vector<NodeID>> slots_;
  std::vector<NodeID> slot_vertex_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<NodeID> batch_;
  std::vector<std::vector<NodeID>> batch_adjacency_;
  std::vector<double> gain_;
  std::vector<BlockID> touched_;
  double alpha_ = 0;
  double high_degree_ = 0;
  std::size_t kept_capacity_ = 16;
  std::uint64_t batches_ = 0;
  std::uint64_t fallbacks_ = 0;

public:
  std::uint64_t batches() const { return batches_; }
  std::uint64_t fallbacks() const { return fallbacks_; }
};

} // namespace

Partition stream_partition_buffered(VertexStream& stream, const StreamOptions& options,
                                    std::span<const float> net_weights, ProgressMeter* progress,
                                    VertexStreamStats* stats) {
  check_stream_options(options);
  const NodeID n = stream.num_nodes();
  if (n >= kInBatch)
    throw Unsupported("buffered streaming: too many vertices for this build");
  BufferedPartitioner partitioner(n, stream.num_edges(), options);
  const int passes = stream_passes(options);
  const PassTimer timer;
  if (progress != nullptr) {
    progress->begin(passes > 1 ? "buffered pass 1/" + std::to_string(passes)
                                       : "buffered",
                    stream.num_edges(), false);
  }
  VertexBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    for (NodeID i = 0; i < batch.size(); ++i)
      partitioner.add(batch.first + i, batch.neighbors(i));
    if (progress != nullptr)
      progress->update(stream.entries_done() / 2, stream.entries_done() / 2);
  }
  stream.end_pass();
  partitioner.finish();
  if (progress != nullptr)
    progress->end(stream.entries_done() / 2, stream.entries_done() / 2);
  timer.record(stats);
  if (stats != nullptr) {
    stats->edges_per_pass = stream.entries_done() / 2;
    stats->batches = partitioner.batches();
    stats->engine_fallbacks = partitioner.fallbacks();
  }
  Partition partition;
  partition.k = options.k;
  partition.blocks = partitioner.take_blocks();
  for (int pass = 1; pass < passes; ++pass) {
    const PassTimer pass_timer;
    if (progress != nullptr) {
      progress->begin("buffered pass " + std::to_string(pass + 1) + "/" +
                          std::to_string(passes),
                      stream.num_edges(), false);
    }
    const RestreamCounts counts = restream_batches(stream, options, pass, partition.blocks);
    if (progress != nullptr)
      progress->end(stream.entries_done() / 2, stream.entries_done() / 2);
    pass_timer.record(stats);
    if (stats != nullptr) {
      stats->batches += counts.batches;
      stats->engine_fallbacks += counts.fallbacks;
    }
  }
  return partition;
}

} // namespace gnnpart::streaming
