// gnnpart evaluate GRAPH PARTITION: the communication and balance figures of a partition, as
// text or as JSON with the key names of the independent checker evalpart; with --cost, the
// predicted epoch time of gnnpart-train, per rank, or a ranking of several partitions; with
// --minibatch --cost, the predicted time per step of its fetch mini-batches instead.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "command.h"
#include "core/errors.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "cost/minibatch_rows.h"
#include "cost_report.h"
#include "gnnpart/gnnpart_defaults.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "io/graph_io.h"
#include "minibatch_cost_report.h"
#include "model_flags.h"
#include "support.h"

namespace gnnpart::app {
namespace {

struct EvaluateArgs {
  std::string graph;
  std::vector<std::string> partitions;
  BlockID k = 0;
  std::uint64_t feature_dim = 0;
  bool json = false;
  InputFlags input;
  WeightFlags weights;
  bool minibatch = false;
  MinibatchFlags sampling;
  std::uint32_t samples = GNNPART_DEFAULT_PREDICT_SAMPLES;
  std::uint64_t seed = 0;
  CostFlags cost;
};

// Without -k, a stray block id (9 in an 8-block file) silently makes k = 10 with empty blocks.
void warn_inferred_k(const EvaluateArgs& args, const GlobalFlags& global, BlockID k,
                     std::uint64_t empty_blocks) {
  if (args.k == 0 && empty_blocks > 0)
    warn(global, fmt::format("no -k given: k = {} (the largest block id + 1) leaves {} block(s) "
                             "empty; pass -k K if the partition has fewer blocks",
                             k, empty_blocks));
}

// km1, cut and soed of a partition of an hMETIS hypergraph.
int evaluate_hypergraph_file(const EvaluateArgs& args, const GlobalFlags& global) {
  const Hypergraph hypergraph = io::read_hmetis(args.graph, read_options(args.input));
  const Partition partition =
      io::read_partition(args.partitions[0], hypergraph.num_nodes(), args.k);
  const HypergraphMetrics metrics = compute_hypergraph_metrics(hypergraph, partition);
  warn_inferred_k(args, global, metrics.k, metrics.empty_blocks);
  if (args.json) {
    JsonObject json;
    json.add("hypergraph", args.graph)
        .add("partition", args.partitions[0])
        .add("n", std::uint64_t{metrics.n})
        .add("num_nets", std::uint64_t{metrics.num_nets})
        .add("num_pins", std::uint64_t{metrics.num_pins})
        .add("k", std::uint64_t{metrics.k})
        .add("km1", metrics.km1)
        .add("cut", metrics.cut)
        .add("soed", metrics.soed)
        .add("imbalance", metrics.imbalance.empty() ? 0.0 : metrics.imbalance.front())
        .add("imbalance_per_constraint", metrics.imbalance)
        .add("empty_blocks", std::uint64_t{metrics.empty_blocks});
    std::printf("%s\n", json.str().c_str());
  } else if (!global.quiet) {
    std::printf("gnnpart: %s on %s (n = %llu, nets = %llu, k = %u)\n  km1             %lld\n"
                "  cut             %lld\n  soed            %lld\n  imbalance       %.4f\n"
                "  empty blocks    %u\n",
                args.partitions[0].c_str(), args.graph.c_str(),
                static_cast<unsigned long long>(metrics.n),
                static_cast<unsigned long long>(metrics.num_nets), metrics.k,
                static_cast<long long>(metrics.km1), static_cast<long long>(metrics.cut),
                static_cast<long long>(metrics.soed),
                metrics.imbalance.empty() ? 0.0 : metrics.imbalance.front(), metrics.empty_blocks);
  }
  return 0;
}

// --minibatch --cost: the trainer's fetch steps with evaluate's sampling flags.
StepCostRequest step_cost_request(const EvaluateArgs& args, const CsrGraph& graph) {
  StepCostRequest request;
  request.flags = &args.cost;
  request.batches.batch_size = args.sampling.batch_size;
  request.batches.fanouts = cost::input_layer_first(args.sampling.fanouts);
  request.batches.seed = args.seed;
  request.train = cost::training_vertices(
      graph.num_nodes(), args.sampling.train.empty()
                             ? std::vector<NodeID>{}
                             : io::read_vertex_set(args.sampling.train, graph.num_nodes()));
  request.samples = args.samples;
  return request;
}

// Several partitions with --cost: the ranking by predicted epoch (or mini-batch step) time only.
int rank_partitions(const EvaluateArgs& args, const CsrGraph& graph, const GlobalFlags& global) {
  std::vector<Partition> partitions;
  for (const std::string& path : args.partitions)
    partitions.push_back(io::read_partition(path, graph.num_nodes(), args.k));
  std::string json, text;
  if (args.minibatch) {
    const StepCostRequest request = step_cost_request(args, graph);
    const auto cases = predict_step_cases(graph, args.partitions, partitions, request);
    json = step_cost_json(cases, request);
    text = fmt::format("gnnpart: {} partitions of {} ranked by predicted mini-batch step time\n{}",
                       cases.size(), args.graph, step_cost_text(cases, request));
  } else {
    const auto cases = predict_cases(graph, args.partitions, partitions, args.cost);
    json = cost_json(cases, args.cost);
    text = fmt::format("gnnpart: {} partitions of {} ranked by predicted epoch time\n{}",
                       cases.size(), args.graph, cost_text(cases, args.cost));
  }
  if (args.json)
    std::printf("%s\n", json.c_str());
  else if (!global.quiet)
    std::fputs(text.c_str(), stdout);
  return 0;
}

int run_evaluate(EvaluateArgs args, const GlobalFlags& global) {
  const bool with_cost = !args.cost.profile.empty();
  if (args.partitions.size() > 1 && !with_cost)
    throw InvalidParameter("evaluate: several partition files need --cost PROFILE to rank them");
  if (with_cost)
    args.cost.shape.feature_dim = args.feature_dim > 0
                                      ? static_cast<std::uint32_t>(args.feature_dim)
                                      : args.cost.shape.feature_dim;
  return run_with_threads(args.input.threads, [&] {
    if (is_hypergraph_input(args.graph, args.input)) {
      if (with_cost)
        throw InvalidParameter("evaluate --cost models a graph's GCN; " + args.graph +
                               " is a hypergraph");
      return evaluate_hypergraph_file(args, global);
    }
    CsrGraph graph = read_graph_with_progress(args.graph, args.input, global);
    apply_weight_flags(graph, args.weights);
    if (args.partitions.size() > 1)
      return rank_partitions(args, graph, global);
    const std::string& path = args.partitions[0];
    const Partition partition = io::read_partition(path, graph.num_nodes(), args.k);
    const GraphMetrics metrics = compute_graph_metrics(graph, partition);
    warn_inferred_k(args, global, metrics.k, metrics.empty_blocks);
    MinibatchEstimate estimate;
    if (args.minibatch) {
      const StochasticOptions sampling =
          stochastic_options(graph, args.sampling, args.seed, ColumnNetWeights::kUnit);
      estimate = estimate_minibatch_volume(graph, partition, sampling, args.samples);
    }
    std::vector<CostCase> cases;
    std::vector<StepCostCase> step_cases;
    StepCostRequest step_request;
    if (with_cost && args.minibatch) {
      step_request = step_cost_request(args, graph);
      step_cases = predict_step_cases(graph, args.partitions, {partition}, step_request);
    } else if (with_cost) {
      cases = predict_cases(graph, args.partitions, {partition}, args.cost);
    }
    if (args.json) {
      JsonObject json;
      json.add("graph", args.graph).add("partition", path);
      add_metrics(json, metrics, args.feature_dim);
      if (args.minibatch) {
        json.add("minibatch_volume_mean", estimate.mean)
            .add("minibatch_volume_stderr", estimate.standard_error)
            .add("minibatch_samples", std::uint64_t{estimate.samples})
            .add("batch_size", std::uint64_t{args.sampling.batch_size});
      }
      if (!cases.empty())
        json.add_raw("cost", cost_json(cases, args.cost));
      if (!step_cases.empty())
        json.add_raw("minibatch_cost", step_cost_json(step_cases, step_request));
      std::printf("%s\n", json.str().c_str());
    } else if (!global.quiet) {
      std::string text = fmt::format("gnnpart: {} on {} (n = {}, m = {}, k = {})\n", path,
                                     args.graph, metrics.n, metrics.m, metrics.k);
      text += metrics_text(metrics, args.feature_dim);
      if (args.minibatch)
        text += fmt::format(
            "  mini-batch vol  {:.2f} +- {:.2f} rows per batch of {} ({} samples)\n", estimate.mean,
            estimate.standard_error, args.sampling.batch_size, estimate.samples);
      if (!cases.empty())
        text += cost_text(cases, args.cost);
      if (!step_cases.empty())
        text += step_cost_text(step_cases, step_request);
      std::fputs(text.c_str(), stdout);
    }
    return 0;
  });
}

CommandRunner setup_evaluate(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<EvaluateArgs>();
  CLI::App* cmd =
      parent.add_subcommand("evaluate", "metrics of a partition of a graph or hypergraph");
  cmd->footer(R"(Examples:
  gnnpart evaluate cora.edges.gz cora.edges.gz.part.8
  gnnpart evaluate cora.edges.gz cora.part.8 -k 8 --feature-dim 1433 --json
  gnnpart evaluate cora.edges.gz cora.part.8 --minibatch --train cora.train.gz --batch-size 64
  gnnpart evaluate ibm01.hgr.gz ibm01.part.8
  gnnpart evaluate pubmed.edges.gz pubmed.part.2 --cost profile.json --feature-dim 512 --hidden 256
  gnnpart evaluate pubmed.edges.gz metis.part.4 hyper.part.4 fennel.part.4 --cost profile.json
  gnnpart evaluate pubmed.edges.gz metis.part.2 hyper.part.2 --minibatch --cost profile.json \
      --train pubmed.train.gz --batch-size 256 --fanouts 25,10 --feature-dim 500 --classes 3)");
  cmd->add_option("GRAPH", args->graph, "input graph")->required();
  cmd->add_option("PARTITION", args->partitions,
                  "partition file(s), one block id per line; several are ranked with --cost")
      ->required()
      ->expected(1, -1);
  cmd->add_option("-k,--k", args->k, "number of blocks (default: largest block id + 1)")
      ->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("--feature-dim", args->feature_dim,
                  "feature dimension F: also report bytes per layer = comm_volume * F * 4");
  cmd->add_flag("--json", args->json, "print the metrics as one JSON object");
  add_weight_flags(*cmd, args->weights);
  cmd->add_flag("--minibatch", args->minibatch,
                "also estimate the expected rows sent per mini-batch on fresh samples; with "
                "--cost, predict gnnpart-train's time per mini-batch step (fetch mode; its "
                "--fanouts are these reversed, input layer first) instead of the epoch");
  cmd->add_option("--samples", args->samples, "mini-batches sampled for --minibatch")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 24));
  cmd->add_option("--seed", args->seed, "seed of the --minibatch samples")->capture_default_str();
  add_minibatch_flags(*cmd, args->sampling);
  add_cost_flags(*cmd, args->cost);
  add_input_flags(*cmd, args->input);
  return [args, &global] { return run_evaluate(*args, global); };
}

const RegisterCommand kRegister("evaluate", 20, setup_evaluate);

} // namespace
} // namespace gnnpart::app
