#pragma once
// Partition quality, each parallel with a sequential twin that tests compare against.
// Graph figures are unweighted by edge weight unless named weighted_*; they follow the
// definitions of ../shared/tools/evalpart.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/hypergraph.h"
#include "core/partition.h"
#include "core/types.h"

namespace gnnpart {

struct GraphMetrics {
  NodeID n = 0;
  EdgeID m = 0;
  BlockID k = 0;
  EdgeID edge_cut = 0;          // undirected edges between blocks
  Weight weighted_edge_cut = 0; // the same, summing edge weights
  // Sum over u of lambda(u) - 1, lambda(u) = distinct blocks among {u} and N(u): feature rows
  // sent per layer of full-batch 1D GCN, = km1 of the column-net hypergraph.
  Weight comm_volume = 0;
  std::vector<Weight> send_volume;   // per block p: sum over u in p of lambda(u) - 1
  std::vector<Weight> recv_volume;   // per block q: #{u not in q with a neighbour in q} (halo)
  Weight max_send_volume = 0;
  Weight max_recv_volume = 0;
  Weight max_block_volume = 0;       // max over blocks of send + recv (--objective max-volume)
  double halo_ratio = 0;             // total halo vertices / n
  std::uint64_t num_comm_pairs = 0;  // ordered (p, q) with p sending >= 1 row to q
  NodeID boundary_vertices = 0;      // lambda(u) > 1
  std::vector<Weight> block_sizes;   // vertices per block
  std::vector<double> imbalance;     // per constraint: max block weight / ceil(W / k) - 1
  double imbalance_vertices = 0;     // by vertex count, as evalpart
  BlockID empty_blocks = 0;
};

GraphMetrics compute_graph_metrics(const CsrGraph& graph, const Partition& partition);
GraphMetrics compute_graph_metrics_sequential(const CsrGraph& graph, const Partition& partition);

// Imbalance of one constraint: max block weight / ceil(total / k) - 1.
double imbalance(std::span<const Weight> block_weights_of_constraint, Weight total, BlockID k);

// Edge partition (vertex-cut): one block per undirected edge {sources[i], targets[i]}.
struct EdgePartitionMetrics {
  NodeID n = 0;                       // vertices (isolated ones count nowhere)
  EdgeID m = 0;
  BlockID k = 0;
  double replication_factor = 0;      // copies / covered vertices
  std::uint64_t vertex_copies = 0;    // sum over vertices of blocks holding one of its edges
  NodeID covered_vertices = 0;        // vertices with at least one edge
  std::vector<EdgeID> edges_per_block;
  std::vector<NodeID> copies_per_block;
  double edge_imbalance = 0;          // max edges per block / ceil(m / k) - 1
};

EdgePartitionMetrics compute_edge_partition_metrics(NodeID n, std::span<const NodeID> sources,
                                                    std::span<const NodeID> targets,
                                                    std::span<const BlockID> edge_blocks,
                                                    BlockID k);
EdgePartitionMetrics compute_edge_partition_metrics_sequential(
    NodeID n, std::span<const NodeID> sources, std::span<const NodeID> targets,
    std::span<const BlockID> edge_blocks, BlockID k);

struct HypergraphMetrics {
  NodeID n = 0;
  NetID num_nets = 0;
  EdgeID num_pins = 0;
  BlockID k = 0;
  Weight km1 = 0;   // sum over nets of (lambda(e) - 1) * w(e)
  Weight cut = 0;   // sum over nets with lambda(e) > 1 of w(e)
  Weight soed = 0;  // sum over nets with lambda(e) > 1 of lambda(e) * w(e)
  std::vector<double> imbalance;  // per constraint
  BlockID empty_blocks = 0;
};

HypergraphMetrics compute_hypergraph_metrics(const Hypergraph& hypergraph,
                                             const Partition& partition);
HypergraphMetrics compute_hypergraph_metrics_sequential(const Hypergraph& hypergraph,
                                                        const Partition& partition);

}  // namespace gnnpart
