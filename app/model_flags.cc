#include "model_flags.h"

#include "io/graph_io.h"

namespace gnnpart::app {

void add_minibatch_flags(CLI::App& command, MinibatchFlags& flags) {
  command.add_option("--train", flags.train,
                     "training vertices, one id per line (default: all vertices)");
  command.add_option("--batch-size", flags.batch_size, "mini-batch size b")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 30));
  command.add_option("--batches", flags.batches, "mini-batches h sampled for the stochastic model")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 20));
  command.add_option("--fanouts", flags.fanouts,
                     "neighbours sampled per layer, hop 1 first, -1 = all (default: one layer, "
                     "all neighbours)")
      ->delimiter(',');
}

StochasticOptions stochastic_options(const CsrGraph& graph, const MinibatchFlags& flags,
                                     std::uint64_t seed, ColumnNetWeights weights) {
  StochasticOptions options;
  if (!flags.train.empty()) options.training_set = io::read_vertex_set(flags.train, graph.num_nodes());
  options.batch_size = flags.batch_size;
  options.num_batches = flags.batches;
  options.fanouts = flags.fanouts;
  options.seed = seed;
  options.vertex_weights = weights;
  return options;
}

ColumnNetWeights column_net_weights(const WeightFlags& flags, const CsrGraph& graph) {
  if (!flags.balance_sets.empty()) return ColumnNetWeights::kGraph;
  if (flags.vertex_weights.empty())
    return graph.has_vertex_weights() ? ColumnNetWeights::kGraph : ColumnNetWeights::kUnit;
  if (flags.vertex_weights == "unit") return ColumnNetWeights::kUnit;
  return ColumnNetWeights::kGraph;
}

bool is_hypergraph_input(const std::string& path, const InputFlags& flags) {
  const io::GraphFormat format =
      flags.format.empty() ? io::detect_format(path) : io::parse_format(flags.format);
  return format == io::GraphFormat::kHmetis;
}

}  // namespace gnnpart::app
