#pragma once
// The model a buffered streaming partitioner solves for one batch (HeiStream style): the batch
// vertices (local ids 0..b-1, unit weight) plus one fixed anchor vertex per block (local id
// b + block) that carries the block's current weight and an edge of weight c to every batch
// vertex with c neighbours already assigned to that block. Edges to vertices neither in the
// batch nor assigned are dropped. A symmetric CsrGraph with edge and vertex weights, so any
// graph partitioner that honours fixed vertices can solve it.
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::streaming {

struct BatchModel {
  CsrGraph graph;
  NodeID batch_size = 0;        // anchors are batch_size + b
  std::vector<NodeID> vertices; // global id of batch vertex i
};

// neighbors_of(i) gives batch vertex i's global neighbour list; local_of(v) its local id, or
// kInvalidNodeID when v is not in the batch; blocks[v] the assigned block or kInvalidBlockID.
template <typename NeighborsOf, typename LocalOf>
BatchModel build_batch_model(std::span<const NodeID> vertices, NeighborsOf&& neighbors_of,
                             LocalOf&& local_of, std::span<const BlockID> blocks,
                             std::span<const Weight> block_weights);

// Solves a batch model without the multilevel engine: Fennel over the batch vertices in order
// (anchors fixed, block weights counted), then label-propagation rounds that move a vertex to
// the block it is most connected to when that keeps the block within max_weight. Returns the
// block of every batch vertex.
std::vector<BlockID> solve_batch_locally(const BatchModel& model, BlockID k, Weight max_weight,
                                         double alpha, int rounds);

// Label propagation on a batch model with the anchors fixed (part: a block per batch vertex).
void refine_batch(const BatchModel& model, BlockID k, Weight max_weight, int rounds,
                  std::vector<BlockID>& part);

// Solves the batch model with the in-memory multilevel engine (partition_graph_multilevel) with
// the anchors as fixed vertices, then refines it by label propagation (anchors fixed). Returns an
// empty vector when the engine fails, so the caller falls back to solve_batch_locally.
// epsilon: the run's imbalance, used for the batch together with the anchors' weights.
std::vector<BlockID> solve_batch_multilevel(const BatchModel& model, BlockID k, Weight max_weight,
                                            double epsilon, std::uint64_t seed, int rounds);

} // namespace gnnpart::streaming

#include "streaming/batch_model_impl.h"
