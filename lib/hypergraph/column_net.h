#pragma once
// Full-batch column-net model of 1D-partitioned GCN training: one net per vertex u holding
// {u} and N(u). Under any partition, km1 of this hypergraph equals the graph's communication
// volume (feature rows sent per layer, sum over u of lambda(u) - 1).
#include <cstddef>

#include "core/graph.h"
#include "core/hypergraph.h"

namespace gnnpart {

enum class ColumnNetWeights {
  kDegree, // vertex weight = deg(u) + 1, the nonzeros of u's adjacency row (SpMM work)
  kUnit,   // every vertex weighs 1
  kGraph,  // the graph's own vertex weights (all ncon constraints)
};

// Net u is {u} and N(u), weight 1; net ids equal vertex ids. Parallel.
Hypergraph build_column_net(const CsrGraph& graph,
                            ColumnNetWeights weights = ColumnNetWeights::kDegree);

// Vertex weights of the chosen kind (empty for kUnit), n * ncon entries.
std::vector<Weight> column_net_vertex_weights(const CsrGraph& graph, ColumnNetWeights weights,
                                              int* ncon);

// The graph's structure (unit edge weights) with the column-net model's vertex weights: the graph
// whose edge-cut partitions start the model's partitioner.
CsrGraph graph_with_model_weights(const CsrGraph& graph, const Hypergraph& model);

// A copy of `graph` (its vertex weights kept) whose edge {u, v} weighs
// max(1, round(32 (1 / d(u) + 1 / d(v)))): the share of net u's and net v's cost that the edge
// carries when all of a vertex's edges together price its one net (km1 counts a net once however
// many of its edges are cut). The edge-cut partition of this copy is a start priced for km1.
CsrGraph graph_with_km1_prices(const CsrGraph& graph);
// The bytes graph_with_km1_prices allocates: offsets, adjacency, 64-bit edge weights and the
// vertex weights.
std::size_t km1_priced_copy_bytes(const CsrGraph& graph);

} // namespace gnnpart
