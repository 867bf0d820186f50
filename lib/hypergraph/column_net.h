#pragma once
// Full-batch column-net model of 1D-partitioned GCN training: one net per vertex u holding
// {u} and N(u). Under any partition, km1 of this hypergraph equals the graph's communication
// volume (feature rows sent per layer, sum over u of lambda(u) - 1).
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

} // namespace gnnpart
