#pragma once
// Flags and helpers of the hypergraph models shared by `partition` and `evaluate`: the
// stochastic (mini-batch) sampling settings and the choice of column-net vertex weights.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/graph.h"
#include "hypergraph/stochastic_model.h"
#include "support.h"

namespace gnnpart::app {

// --train FILE, --batch-size B, --batches H, --fanouts 10,25 (and the seed, set by the caller).
struct MinibatchFlags {
  std::string train;
  NodeID batch_size = 1024;
  std::uint32_t batches = 32;
  std::vector<int> fanouts;
};
void add_minibatch_flags(CLI::App& command, MinibatchFlags& flags);
StochasticOptions stochastic_options(const CsrGraph& graph, const MinibatchFlags& flags,
                                     std::uint64_t seed, ColumnNetWeights weights);

// Column-net vertex weights for the weight flags. Without flags: the input's own weights, else
// unit, so blocks keep their share of vertices (deg + 1 by default let cnr-2000's blocks reach
// 3.09x the average vertex count at k = 32); `degree`, a FILE or balance sets: the graph's
// weight matrix, already installed by apply_weight_flags.
ColumnNetWeights column_net_weights(const WeightFlags& flags, const CsrGraph& graph);

// True when the path names an hMETIS hypergraph (by --format or the extension).
bool is_hypergraph_input(const std::string& path, const InputFlags& flags);

}  // namespace gnnpart::app
