// gnnpart partition GRAPH -k K: partitions a graph, writes the partition (gpmetis format,
// atomically) and prints its metrics.
#include <chrono>
#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cmd_layout.h"
#include "command.h"
#include "core/errors.h"
#include "core/metrics.h"
#include "core/option_names.h"
#include "core/options.h"
#include "core/parallel.h"
#include "cost/profile.h"
#include "cost_report.h"
#include "hypergraph/bottleneck_refiner.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "io/graph_io.h"
#include "model_flags.h"
#include "outputs.h"
#include "partition/partitioner.h"
#include "support.h"

namespace gnnpart::app {
namespace {

// The hypergraph engine allocates and frees arrays of many sizes (levels, pin counts, the gain
// cache). glibc raises its mmap threshold to the size of each freed mapping (up to 32 MB), after
// which such arrays come from the heap and stay resident once freed: 39 MB of cnr-2000's
// 149 MB peak at k = 128. A fixed threshold gives them back (docs/hypergraph.md, "Memory").
void return_freed_arrays() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

struct PartitionArgs {
  std::string graph;
  std::string output;
  std::string json;
  std::string layout;
  // Defaults from gnnpart_defaults.h through PartitionOptions, as on every front end.
  std::string algorithm{to_string(PartitionOptions{}.algorithm)};
  std::string model{to_string(PartitionOptions{}.model)};
  std::string objective; // default: cut for the graph model, km1 for the hypergraph models
  std::string preset{to_string(PartitionOptions{}.preset)};
  std::string flows{to_string(PartitionOptions{}.flows)};
  InputFlags input;
  WeightFlags weights;
  MinibatchFlags minibatch;
  CostFlags cost; // --objective epoch: the profile and the GCN's shape
  PartitionOptions options;
};

// The values a flag takes: the names in an option's table (core/option_names.h) but skip's.
template <typename Enum, std::size_t N>
std::vector<std::string> flag_values(const api::EnumName<Enum> (&table)[N],
                                     std::optional<Enum> skip = std::nullopt) {
  std::vector<std::string> names;
  for (const api::EnumName<Enum>& entry : table)
    if (entry.value != skip)
      names.emplace_back(entry.name);
  return names;
}

// A flag that takes the name of one of an enum's values, its default shown in --help.
template <typename Enum, std::size_t N>
void add_enum_flag(CLI::App& cmd, const std::string& flag, std::string& value,
                   const std::string& help, const api::EnumName<Enum> (&table)[N]) {
  cmd.add_option(flag, value, help)
      ->check(CLI::IsMember(flag_values(table)))
      ->capture_default_str();
}

// The enum named by a flag value (already checked by CLI11 against the same names).
template <typename Enum, std::size_t N>
Enum from_name(const api::EnumName<Enum> (&table)[N], const std::string& name) {
  for (const api::EnumName<Enum>& entry : table)
    if (name == entry.name)
      return entry.value;
  throw InvalidParameter(fmt::format("unknown value '{}'", name));
}

PartitionOptions resolve_options(const PartitionArgs& args, const GlobalFlags& global,
                                 bool hypergraph_input) {
  PartitionOptions options = args.options;
  options.threads = args.input.threads;
  options.logger = make_logger(global);
  options.algorithm = from_name(api::kAlgorithmNames, args.algorithm);
  options.model = hypergraph_input ? Model::kHypergraph : from_name(api::kModelNames, args.model);
  options.objective = args.objective.empty()
                          ? default_objective(options.model)
                          : static_cast<Objective>(from_name(api::kObjectiveNames, args.objective));
  options.preset = from_name(api::kPresetNames, args.preset);
  options.flows = from_name(api::kFlowRefinementNames, args.flows);
  validate_options(options, 0); // all but k <= n, before the input is read
  if (options.objective == Objective::kEpoch && args.cost.profile.empty())
    throw InvalidParameter("--objective epoch needs --cost PROFILE.json (the machine profile of "
                           "gnnpart-train --calibrate, docs/cost_model.md)");
  if (options.objective != Objective::kEpoch && !args.cost.profile.empty())
    throw InvalidParameter("--cost is the input of --objective epoch; give that objective too");
  return options;
}

// The partition of the graph under the chosen model: the graph itself, its column-net
// hypergraph, or the stochastic hypergraph of sampled mini-batches. For the hypergraph models,
// model_imbalance receives the imbalance of the model's own vertex weights (unit unless
// --vertex-weights or the input says otherwise), the balance the partitioner was bound by.
// The column-net model borrows the graph's arrays while it runs (no copy of the graph), but for
// --objective max-volume / epoch.
Partition partition_with_model(CsrGraph& graph, const PartitionArgs& args,
                               const PartitionOptions& options, const GlobalFlags& global,
                               std::vector<double>& model_imbalance) {
  if (options.model == Model::kGraph)
    return partition_graph(graph, options);
  return_freed_arrays();
  const ColumnNetWeights weights = column_net_weights(args.weights, graph);
  // The bottleneck objectives refine with the graph beside its model: no lending there.
  if (options.model == Model::kHypergraph && !is_bottleneck(options.objective))
    return partition_column_net(graph, weights, options, &model_imbalance);
  if (options.model == Model::kStochastic && args.minibatch.train.empty())
    warn(global, "--model stochastic without --train samples mini-batches from all vertices, "
                 "not your training set; that partition can send several times METIS's rows "
                 "per batch (4.9x on dblp-2010): pass --train FILE");
  const Hypergraph model =
      options.model == Model::kHypergraph
          ? build_column_net(graph, weights)
          : build_stochastic_hypergraph(
                graph, stochastic_options(graph, args.minibatch, options.seed, weights));
  hg::EpochInput epoch;
  if (options.objective == Objective::kEpoch)
    epoch = {cost::read_profile(args.cost.profile), args.cost.shape};
  Partition partition =
      options.model == Model::kHypergraph
          ? partition_column_net(graph, model, options,
                                 options.objective == Objective::kEpoch ? &epoch : nullptr)
          : partition_hypergraph(model, options);
  model_imbalance = compute_hypergraph_metrics(model, partition).imbalance;
  return partition;
}

void print_summary(const std::string& text) {
  std::fputs(text.c_str(), stdout);
}

// `gnnpart partition FILE.hgr`: a hypergraph in, its km1 / cut / soed out.
int run_partition_hypergraph_file(const PartitionArgs& args, const PartitionOptions& options,
                                  const std::string& output, const GlobalFlags& global,
                                  CommandOutputs& outputs) {
  Hypergraph hypergraph = [&] {
    Progress reading(global, fmt::format("reading {}", args.graph));
    return io::read_hmetis(args.graph, read_options(args.input));
  }();
  check_options(options, hypergraph.num_nodes());
  return_freed_arrays();
  Progress partitioning(global, fmt::format("partitioning into {} blocks", options.k));
  PartitionOptions reporting = options;
  reporting.progress = partitioning.status();
  const Partition partition = partition_hypergraph(hypergraph, reporting);
  const double seconds = partitioning.finish();
  const HypergraphMetrics metrics = compute_hypergraph_metrics(hypergraph, partition);
  io::write_partition(partition, output);
  outputs.written(output);
  if (!args.json.empty()) {
    JsonObject json;
    json.add("hypergraph", args.graph)
        .add("partition", output)
        .add("objective", std::string(to_string(options.objective)))
        .add("n", std::uint64_t{metrics.n})
        .add("num_nets", std::uint64_t{metrics.num_nets})
        .add("k", std::uint64_t{metrics.k})
        .add("km1", metrics.km1)
        .add("cut", metrics.cut)
        .add("soed", metrics.soed)
        .add("imbalance", metrics.imbalance)
        .add("empty_blocks", std::uint64_t{metrics.empty_blocks})
        .add("time_partition_s", seconds);
    write_text_file(args.json, json.str() + "\n");
    outputs.written(args.json);
  }
  if (!global.quiet) {
    print_summary(fmt::format(
        "gnnpart: {} (n = {}, nets = {}, pins = {}) -> {} blocks in {}\n"
        "  km1             {}\n  cut             {}\n  soed            {}\n"
        "  imbalance       {:.4f}\n  empty blocks    {}\n  written to      {}\n",
        args.graph, metrics.n, metrics.num_nets, metrics.num_pins, options.k,
        format_seconds(seconds), metrics.km1, metrics.cut, metrics.soed,
        metrics.imbalance.empty() ? 0.0 : metrics.imbalance.front(), metrics.empty_blocks, output));
  }
  return 0;
}

int run_partition(const PartitionArgs& args, const GlobalFlags& global) {
  const auto start = std::chrono::steady_clock::now();
  const bool hypergraph_input = is_hypergraph_input(args.graph, args.input);
  const PartitionOptions options = resolve_options(args, global, hypergraph_input);
  if (hypergraph_input && !args.layout.empty())
    throw InvalidParameter("--layout needs a graph input, not a hypergraph");
  const std::string output =
      args.output.empty() ? default_output_path(args.graph, fmt::format(".part.{}", options.k))
                          : args.output;
  CommandOutputs outputs;
  outputs.file(output);
  outputs.file(args.json);
  outputs.directory(args.layout);

  const int status = run_with_threads(options.threads, [&] {
    if (hypergraph_input)
      return run_partition_hypergraph_file(args, options, output, global, outputs);
    CsrGraph graph = read_graph_with_progress(args.graph, args.input, global);
    apply_weight_flags(graph, args.weights);
    check_options(options, graph.num_nodes());

    Progress partitioning(global,
                          fmt::format("partitioning into {} blocks ({} model, {}, {})", options.k,
                                      to_string(options.model), to_string(options.algorithm),
                                      to_string(options.preset)));
    std::vector<double> model_imbalance;
    PartitionOptions reporting = options;
    reporting.progress = partitioning.status();
    const Partition partition =
        partition_with_model(graph, args, reporting, global, model_imbalance);
    const double partition_seconds = partitioning.finish();

    const GraphMetrics metrics = compute_graph_metrics(graph, partition);
    {
      Progress writing(global, fmt::format("writing {}", output));
      if (!args.layout.empty()) { // the larger, likelier to fail output first
        LayoutRequest request;
        request.dir = args.layout;
        request.graph_name = graph_name_of(args.graph);
        request.model = std::string(to_string(options.model));
        request.objective = std::string(to_string(options.objective));
        request.threads = options.threads;
        write_layout(graph, partition, request);
        outputs.written(args.layout);
      }
      io::write_partition(partition, output);
      outputs.written(output);
      writing.finish();
    }
    const double total_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!args.json.empty()) {
      JsonObject json;
      json.add("graph", args.graph)
          .add("partition", output)
          .add("model", std::string(to_string(options.model)))
          .add("algorithm", std::string(to_string(options.algorithm)))
          .add("objective", std::string(to_string(options.objective)))
          .add("preset", std::string(to_string(options.preset)))
          .add("epsilon", options.epsilon)
          .add("seed", std::uint64_t{options.seed})
          .add("threads", static_cast<std::uint64_t>(resolve_threads(options.threads)))
          .add("ncon", static_cast<std::uint64_t>(graph.ncon()));
      add_metrics(json, metrics, 0);
      if (!model_imbalance.empty())
        json.add("model_imbalance", model_imbalance);
      json.add("time_partition_s", partition_seconds).add("time_total_s", total_seconds);
      write_text_file(args.json, json.str() + "\n");
      outputs.written(args.json);
    }
    if (!global.quiet) {
      std::string text = fmt::format(
          "gnnpart: {} (n = {}, m = {}) -> {} blocks, {} model with {} in {} (total {})\n",
          args.graph, metrics.n, metrics.m, options.k, to_string(options.model),
          options.model == Model::kGraph ? to_string(options.algorithm) : "multilevel",
          format_seconds(partition_seconds), format_seconds(total_seconds));
      text += metrics_text(metrics, 0);
      if (!model_imbalance.empty())
        text += fmt::format("  model balance   {:.4f} (imbalance of the {} model's vertex weights, "
                            "the bound it was given)\n",
                            model_imbalance.front(), to_string(options.model));
      text += fmt::format("  written to      {}\n", output);
      if (!args.layout.empty())
        text += fmt::format("  layout in       {}\n", args.layout);
      print_summary(text);
    }
    return 0;
  });
  outputs.keep();
  if (args.output.empty())
    note(global, fmt::format("no -o given: the partition is {} in the current directory", output));
  return status;
}

CommandRunner setup_partition(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<PartitionArgs>();
  CLI::App* cmd = parent.add_subcommand("partition", "partition a graph into k blocks");
  cmd->footer(R"(Examples:
  gnnpart partition datasets/cora.edges.gz -k 8
  gnnpart partition g.edges.gz -k 32 --algo metis --objective volume -e 0.05 --seed 7
  gnnpart partition cora.edges.gz -k 4 --vertex-weights degree --balance-set cora.train.gz
  gnnpart partition cora.edges.gz -k 8 --model hypergraph --layout cora.layout
  gnnpart partition cora.edges.gz -k 8 --model stochastic --train cora.train.gz --batch-size 64
  gnnpart partition ibm01.hgr.gz -k 8 --objective km1
  gnnpart partition g.edges.gz -k 32 --model hypergraph --objective max-volume
  gnnpart partition g.edges.gz -k 8 --model hypergraph --objective epoch --cost profile.json \
      --feature-dim 128 --hidden 128)");
  PartitionOptions& o = args->options;
  cmd->add_option("GRAPH", args->graph,
                  "input graph (edge list, METIS, Matrix Market, binary) or hypergraph (.hgr)")
      ->required();
  cmd->add_option("-k,--k", o.k, "number of blocks")->required()->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("-o,--output", args->output,
                  "partition file (default: ./BASENAME.part.K in the current directory); a "
                  "FIFO, device or /dev/stdout is written directly, a symlink's target replaced");
  add_enum_flag(*cmd, "--algo", args->algorithm, "multilevel (own engine) or metis",
                api::kAlgorithmNames);
  add_enum_flag(*cmd, "--model", args->model,
                "graph: edge cut, METIS's objective at about METIS's speed (the default); "
                "hypergraph: column-net, the exact feature rows sent per GCN layer (about 15% "
                "fewer than METIS at about 3x its time); stochastic: expected rows per "
                "mini-batch (give --train). Every model balances vertex counts unless "
                "--vertex-weights says otherwise",
                api::kModelNames);
  cmd->add_option("--objective", args->objective,
                  "graph model: cut or volume (sum of lambda - 1); hypergraph models: km1 "
                  "(default), cut or soed; --model hypergraph on a graph also: max-volume (the "
                  "largest per-block send + receive volume, total volume within 1.05x of km1's) "
                  "or epoch (the epoch model's slowest rank; needs --cost). The graph model and "
                  "hypergraph inputs refuse max-volume and epoch")
      ->check(CLI::IsMember(flag_values(api::kObjectiveNames, {api::Objective::kDefault})));
  add_enum_flag(*cmd, "--preset", args->preset, "fast, default or strong", api::kPresetNames);
  add_enum_flag(*cmd, "--flows", args->flows,
                "hypergraph models: flow refinement on block pairs; preset (strong: on; "
                "default: on for .hgr inputs, off on graph models; fast: off), on or off",
                api::kFlowRefinementNames);
  add_weight_flags(*cmd, args->weights);
  cmd->add_option("-e,--epsilon", o.epsilon,
                  "allowed imbalance: blocks weigh at most floor((1 + e) * ceil(W / k))")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--seed", o.seed, "random seed")->capture_default_str();
  add_input_flags(*cmd, args->input);
  cmd->add_option("--json", args->json, "also write the metrics as JSON to this file");
  cmd->add_option("--layout", args->layout,
                  "also write the trainer layout (docs/layout.md) into this directory");
  add_minibatch_flags(*cmd, args->minibatch);
  add_cost_flags(*cmd, args->cost);
  cmd->add_option("--feature-dim", args->cost.shape.feature_dim,
                  "--cost: input feature dimension of the trained GCN")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 24));
  return [args, &global] { return run_partition(*args, global); };
}

const RegisterCommand kRegister("partition", 10, setup_partition);

} // namespace
} // namespace gnnpart::app
