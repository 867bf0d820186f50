#pragma once
// The column-net model made from a graph's own arrays, without a copy: net u is N(u) with u put
// in its sorted place, so the adjacency array grows by n entries (copied front to back into an
// array of 2m + n while the old one's pages are given back, so the two are not resident
// together), and the same arrays become the graph again when the model is done. The graph must have
// strictly increasing neighbour lists without self loops (what the graph builder makes);
// column_net_in_place_ok says whether it has.
// Peak memory of `gnnpart partition --model hypergraph`: the input graph and a copy as the model
// are never alive together.
#include <vector>

#include "core/graph.h"
#include "core/hypergraph.h"
#include "hypergraph/column_net.h"

namespace gnnpart {

// True when every neighbour list of `graph` is strictly increasing, below n, and without u.
bool column_net_in_place_ok(const CsrGraph& graph);

// A lent graph's weights, kept aside to be given back with its structure.
struct LentGraphWeights {
  std::vector<Weight> edge_weights;
  int ncon = 1;
  std::vector<Weight> vertex_weights;
};

// Holds `graph`'s arrays as its column-net model (net weights 1, vertex weights of `weights`)
// for its lifetime. Meanwhile `graph` is empty; the destructor gives it back unchanged (the
// same offsets, adjacency, edge and vertex weights). Needs column_net_in_place_ok(graph).
class ColumnNetInPlace {
public:
  ColumnNetInPlace(CsrGraph& graph, ColumnNetWeights weights);
  ~ColumnNetInPlace();
  ColumnNetInPlace(const ColumnNetInPlace&) = delete;
  ColumnNetInPlace& operator=(const ColumnNetInPlace&) = delete;

  const Hypergraph& model() const { return model_; }
  Hypergraph& model() { return model_; } // for a cycle that packs its pins a while

private:
  CsrGraph& graph_;
  LentGraphWeights kept_;
  Hypergraph model_;
};

// Lends `graph` with unit edge weights and the column-net model's vertex weights (the graph
// whose edge-cut partition starts the model's partitioner) for its lifetime; the destructor puts
// the graph's own weights back.
class ModelWeightedGraph {
public:
  ModelWeightedGraph(CsrGraph& graph, ColumnNetWeights weights);
  ~ModelWeightedGraph();
  ModelWeightedGraph(const ModelWeightedGraph&) = delete;
  ModelWeightedGraph& operator=(const ModelWeightedGraph&) = delete;

  const CsrGraph& graph() const { return graph_; }

private:
  CsrGraph& graph_;
  LentGraphWeights kept_;
};

} // namespace gnnpart
