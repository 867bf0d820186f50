// gnnpart layout GRAPH PARTITION -o DIR: writes the per-block arrays a distributed GNN trainer
// loads (docs/layout.md), for a vertex partition or (--edge-partition) an edge partition.
#include "cmd_layout.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command.h"
#include "outputs.h"
#include "core/errors.h"
#include "core/parallel.h"
#include "hypergraph/stochastic_model.h"
#include "io/features.h"
#include "io/graph_io.h"
#include "layout/layout_io.h"
#include "layout/layout_plan.h"
#include "support.h"

namespace gnnpart::app {

LayoutSummary write_layout(const CsrGraph& graph, const Partition& partition,
                           const LayoutRequest& request) {
  const NodeID n = graph.num_nodes();
  std::vector<LayoutPlan> plans = build_layout_plans(graph, partition, request.threads);
  VertexSets sets;
  if (!request.train.empty())
    sets.train = io::read_vertex_set(request.train, n);
  if (!request.val.empty())
    sets.val = io::read_vertex_set(request.val, n);
  if (!request.test.empty())
    sets.test = io::read_vertex_set(request.test, n);
  if (!request.labels.empty())
    sets.labels = io::read_vertex_values(request.labels, n);
  attach_vertex_sets(plans, sets);

  std::vector<FeatureSlice> slices;
  if (!request.features.empty()) {
    const io::SparseFeatures features = io::read_features(request.features, n);
    slices.reserve(plans.size());
    for (const LayoutPlan& plan : plans)
      slices.push_back(io::slice_features(features, plan.owned));
  }
  io::LayoutWriteOptions options;
  options.graph_name = request.graph_name;
  options.model = request.model;
  options.objective = request.objective;
  options.feature_dim = request.feature_dim;
  if (request.batch_size > 0) {
    StochasticOptions sampling;
    sampling.training_set = sets.train;
    sampling.batch_size = request.batch_size;
    sampling.fanouts = request.fanouts;
    sampling.seed = request.seed;
    const MinibatchEstimate estimate =
        estimate_minibatch_volume(graph, partition, sampling, request.samples);
    options.batch_size = request.batch_size;
    options.fanouts = request.fanouts;
    options.predicted_rows_per_batch = estimate.mean;
    options.predicted_rows_per_batch_stderr = estimate.standard_error;
  }
  io::write_layout_directory(request.dir, plans, partition, slices, options);
  return summarize_layout(plans);
}

namespace {

struct LayoutArgs {
  std::string graph;
  std::string partition;
  LayoutRequest request;
  InputFlags input;
  BlockID k = 0;
  bool edge_partition = false;
};

int run_layout(LayoutArgs& args, const GlobalFlags& global) {
  LayoutRequest& request = args.request;
  request.threads = args.input.threads;
  if (request.graph_name.empty())
    request.graph_name = graph_name_of(args.graph);
  CommandOutputs outputs;
  outputs.directory(request.dir); // before the graph is read, not after
  return run_with_threads(request.threads, [&] {
    LayoutSummary summary;
    BlockID k = 0;
    NodeID n = 0;
    EdgeID m = 0;
    if (!args.edge_partition) {
      const CsrGraph graph = read_graph_with_progress(args.graph, args.input, global);
      const Partition partition = io::read_partition(args.partition, graph.num_nodes(), args.k);
      Progress writing(global, fmt::format("writing layout {}", request.dir));
      summary = write_layout(graph, partition, request);
      writing.finish();
      k = partition.k;
      n = graph.num_nodes();
      m = graph.num_edges();
    } else {
      for (const std::string* side :
           {&request.train, &request.val, &request.test, &request.labels, &request.features}) {
        if (!side->empty()) {
          throw InvalidParameter("--edge-partition layouts take no train/val/test/labels/features");
        }
      }
      const io::EdgeListData data = io::read_edge_list(args.graph, read_options(args.input));
      const std::size_t edges = data.edges.sources.size();
      if (edges > kMaxNodeID)
        throw Unsupported("edge partitions with more than 2^32 edges");
      const Partition edge_blocks =
          io::read_partition(args.partition, static_cast<NodeID>(edges), args.k);
      Progress writing(global, fmt::format("writing edge layout {}", request.dir));
      const std::vector<EdgeLayoutBlock> blocks =
          build_edge_layout(data.edges.n, data.edges.sources, data.edges.targets,
                            edge_blocks.blocks, edge_blocks.k, request.threads);
      io::LayoutWriteOptions options;
      options.graph_name = request.graph_name;
      options.model = request.model;
      options.objective = request.objective;
      options.feature_dim = request.feature_dim;
      io::write_edge_layout_directory(request.dir, blocks, options);
      writing.finish();
      summary = summarize_layout(std::span<const EdgeLayoutBlock>(blocks));
      k = edge_blocks.k;
      n = data.edges.n;
      m = edges;
    }
    if (!global.quiet) {
      std::fputs(fmt::format("gnnpart: layout of {} (n = {}, m = {}, k = {}) written to {}\n"
                             "  rows per layer  {}{}\n  max send rows   {}\n  max recv rows   {}\n"
                             "  messages/layer  {}\n",
                             args.graph, n, m, k, request.dir, summary.rows_per_layer,
                             args.edge_partition ? " (mirror -> master; as many back)" : "",
                             summary.max_send_rows, summary.max_recv_rows, summary.messages)
                     .c_str(),
                 stdout);
    }
    return 0;
  });
}

CommandRunner setup_layout(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<LayoutArgs>();
  CLI::App* cmd = parent.add_subcommand(
      "layout", "write per-block trainer arrays (.npy + layout.json) for a partition");
  cmd->footer(R"(Examples:
  gnnpart layout cora.edges.gz cora.edges.gz.part.4 -o cora-4 --features cora.features.gz \
      --labels cora.labels.gz --train cora.train.gz --val cora.val.gz --test cora.test.gz
  gnnpart layout g.edges.gz g.edges.gz.epart.8 -o g-8 --edge-partition)");
  LayoutRequest& r = args->request;
  cmd->add_option("GRAPH", args->graph, "input graph")->required();
  cmd->add_option("PARTITION", args->partition,
                  "partition file: one block per vertex line (or per edge, --edge-partition)")
      ->required();
  cmd->add_option("-o,--output", r.dir, "layout directory (replaced atomically)")->required();
  cmd->add_option("-k,--k", args->k, "number of blocks (default: max block id + 1)");
  cmd->add_option("--train", r.train, "training vertex ids, one per line");
  cmd->add_option("--val", r.val, "validation vertex ids");
  cmd->add_option("--test", r.test, "test vertex ids");
  cmd->add_option("--labels", r.labels, "one label per vertex line (-1: none)");
  cmd->add_option("--features", r.features, "sparse 'row col value' features (plain or gzip)");
  cmd->add_option("--feature-dim", r.feature_dim,
                  "feature width for the predicted bytes (default: the features' width)");
  cmd->add_option("--name", r.graph_name, "graph name in layout.json (default: from GRAPH)");
  cmd->add_option("--model", r.model, "partitioning model, recorded in layout.json")
      ->capture_default_str();
  cmd->add_option("--objective", r.objective, "partitioning objective, recorded in layout.json")
      ->capture_default_str();
  cmd->add_option("--batch-size", r.batch_size,
                  "also predict the rows sent per mini-batch of this size (stochastic model)");
  cmd->add_option("--fanouts", r.fanouts, "neighbours sampled per layer for --batch-size")
      ->delimiter(',');
  cmd->add_option("--samples", r.samples, "mini-batches sampled for the prediction")
      ->capture_default_str();
  cmd->add_option("--seed", r.seed, "seed of the prediction's samples")->capture_default_str();
  cmd->add_flag("--edge-partition", args->edge_partition,
                "PARTITION holds one block per input edge (vertex-cut layout)");
  add_input_flags(*cmd, args->input);
  return [args, &global] { return run_layout(*args, global); };
}

const RegisterCommand kRegister("layout", 40, setup_layout);

} // namespace
} // namespace gnnpart::app
