#pragma once
// Stochastic hypergraph model of mini-batch GCN training (after Demirci et al.): h mini-batches
// of b training vertices are sampled; the computation tree of every batch vertex v is the set
// S(v) of vertices reached by neighbour sampling (fanouts per layer; no fanouts = one layer of
// all neighbours). For every batch and every vertex u needed by some batch vertex (u in S(v),
// u != v), one net {u} and {v in batch : u in S(v)} with weight 1. Identical nets are merged
// with summed weights, so net weights are integer multiplicities and
//   expected volume per mini-batch = km1 / h.
// The volume of a batch under a partition = sum over needed u of the number of distinct blocks
// of its needers other than block(u): the feature rows the owners of u send per batch.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/hypergraph.h"
#include "core/partition.h"
#include "hypergraph/column_net.h"

namespace gnnpart {

struct StochasticOptions {
  std::vector<NodeID> training_set; // empty: all vertices
  NodeID batch_size = 1024;         // b
  std::uint32_t num_batches = 32;   // h
  std::vector<int> fanouts;         // per layer, hop 1 first; < 0 = all neighbours
  std::uint64_t seed = 0;
  ColumnNetWeights vertex_weights = ColumnNetWeights::kDegree;
};

// One sampled mini-batch: batch vertices, and for batch vertex i its needed vertices
// needs[need_offsets[i] .. need_offsets[i + 1]) (sorted, without the batch vertex itself).
struct MinibatchSample {
  std::vector<NodeID> batch;
  std::vector<std::uint64_t> need_offsets;
  std::vector<NodeID> needs;
};

// Batches are consecutive slices of seeded shuffles of the training set (epochs); batch j of a
// run with seed s depends only on (s, j). Throws InvalidParameter on a bad training set.
MinibatchSample sample_minibatch(const CsrGraph& graph, const StochasticOptions& options,
                                 std::uint64_t batch_index);

// Rows sent for one sampled batch under a partition.
Weight minibatch_volume(const MinibatchSample& sample, const Partition& partition);

Hypergraph build_stochastic_hypergraph(const CsrGraph& graph, const StochasticOptions& options);

struct MinibatchEstimate {
  double mean = 0;           // average rows sent per mini-batch
  double standard_error = 0; // sample standard deviation / sqrt(samples)
  std::uint32_t samples = 0;
};

// Volume on `samples` fresh batches: drawn with a seed derived from options.seed that the
// model builder never uses, so a stochastic partition is not evaluated on its own samples.
MinibatchEstimate estimate_minibatch_volume(const CsrGraph& graph, const Partition& partition,
                                            const StochasticOptions& options,
                                            std::uint32_t samples);

} // namespace gnnpart
