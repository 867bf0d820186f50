#pragma once
// Builds the per-block layouts a distributed GNN trainer needs (lib/core/layout.h) from a graph
// and a vertex partition, or from an edge list and an edge partition. Blocks are built in
// parallel inside the caller's task_arena; the result does not depend on the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/layout.h"
#include "core/partition.h"
#include "core/types.h"
#include "gnnpart/gnnpart_defaults.h"

namespace gnnpart {

// One plan per block. Throws InvalidParameter when the partition does not fit the graph.
std::vector<LayoutPlan> build_layout_plans(const CsrGraph& graph, const Partition& partition,
                                           int threads = GNNPART_DEFAULT_THREADS);

// Optional vertex data: train/val/test as global ids (any order, duplicates ignored), labels
// with n entries (or empty). Each plan gets the owned subset as increasing local ids.
struct VertexSets {
  std::vector<NodeID> train;
  std::vector<NodeID> val;
  std::vector<NodeID> test;
  std::vector<std::int64_t> labels;
};
void attach_vertex_sets(std::span<LayoutPlan> plans, const VertexSets& sets);

// Vertex-cut layout: edge i = {sources[i], targets[i]} lives in block edge_blocks[i] < k.
// A vertex's master is the block holding most of its edges (ties broken by a hash of the
// vertex and block, so masters spread over blocks). Self loops are kept as edges but do not
// count towards degrees.
std::vector<EdgeLayoutBlock> build_edge_layout(NodeID n, std::span<const NodeID> sources,
                                               std::span<const NodeID> targets,
                                               std::span<const BlockID> edge_blocks, BlockID k,
                                               int threads = GNNPART_DEFAULT_THREADS);

} // namespace gnnpart
