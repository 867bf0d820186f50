// gnnpart::api: partition / evaluate / build_layout over borrowed views (include/gnnpart).
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "api/graph_view.h"
#include "core/options.h"
#include "core/parallel.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "layout/layout_io.h"
#include "layout/layout_plan.h"
#include "partition/partitioner.h"

namespace gnnpart::api {
namespace {

gnnpart::Model to_model(Model model) {
  switch (model) {
  case Model::kGraph:
    return gnnpart::Model::kGraph;
  case Model::kHypergraph:
    return gnnpart::Model::kHypergraph;
  case Model::kStochastic:
    return gnnpart::Model::kStochastic;
  }
  throw InvalidParameter("unknown model");
}

gnnpart::Objective to_objective(Objective objective, Model model) {
  switch (objective) {
  case Objective::kDefault:
    return model == Model::kGraph ? gnnpart::Objective::kCut : gnnpart::Objective::kKm1;
  case Objective::kCut:
    return gnnpart::Objective::kCut;
  case Objective::kVolume:
    return gnnpart::Objective::kVolume;
  case Objective::kKm1:
    return gnnpart::Objective::kKm1;
  case Objective::kSoed:
    return gnnpart::Objective::kSoed;
  }
  throw InvalidParameter("unknown objective");
}

gnnpart::Preset to_preset(Preset preset) {
  switch (preset) {
  case Preset::kFast:
    return gnnpart::Preset::kFast;
  case Preset::kDefault:
    return gnnpart::Preset::kDefault;
  case Preset::kStrong:
    return gnnpart::Preset::kStrong;
  }
  throw InvalidParameter("unknown preset");
}

gnnpart::FlowRefinement to_flows(FlowRefinement flows) {
  switch (flows) {
  case FlowRefinement::kPreset:
    return gnnpart::FlowRefinement::kPreset;
  case FlowRefinement::kOn:
    return gnnpart::FlowRefinement::kOn;
  case FlowRefinement::kOff:
    return gnnpart::FlowRefinement::kOff;
  }
  throw InvalidParameter("unknown flow refinement setting");
}

ColumnNetWeights to_column_net_weights(VertexWeights weights, const CsrGraph& graph) {
  switch (weights) {
  case VertexWeights::kDefault:
    return graph.has_vertex_weights() ? ColumnNetWeights::kGraph : ColumnNetWeights::kDegree;
  case VertexWeights::kDegree:
    return ColumnNetWeights::kDegree;
  case VertexWeights::kUnit:
    return ColumnNetWeights::kUnit;
  case VertexWeights::kGraph:
    return ColumnNetWeights::kGraph;
  }
  throw InvalidParameter("unknown vertex weights");
}

PartitionOptions to_partition_options(std::uint32_t k, const Options& options) {
  PartitionOptions po;
  po.k = k;
  po.epsilon = options.epsilon;
  po.seed = options.seed;
  po.threads = options.threads;
  po.model = to_model(options.model);
  po.algorithm = options.algorithm == Algorithm::kMetis ? gnnpart::Algorithm::kMetis
                                                        : gnnpart::Algorithm::kMultilevel;
  po.objective = to_objective(options.objective, options.model);
  po.preset = to_preset(options.preset);
  po.flows = to_flows(options.flows);
  const bool graph_model = options.model == Model::kGraph;
  if (graph_model &&
      (po.objective == gnnpart::Objective::kKm1 || po.objective == gnnpart::Objective::kSoed))
    throw InvalidParameter("objective km1/soed needs the hypergraph or stochastic model");
  if (!graph_model && po.algorithm == gnnpart::Algorithm::kMetis)
    throw InvalidParameter("the METIS backend partitions the graph model only");
  if (!(options.epsilon >= 0))
    throw InvalidParameter(fmt::format("epsilon = {} must be >= 0", options.epsilon));
  return po;
}

Result partition_graph_checked(const CsrGraph& graph, std::uint32_t k, const Options& options) {
  const PartitionOptions po = to_partition_options(k, options);
  check_options(po, graph.num_nodes());
  return run_with_threads(options.threads, [&] {
    Result result;
    Partition partition;
    if (po.model == gnnpart::Model::kGraph) {
      partition = partition_graph(graph, po);
    } else {
      const ColumnNetWeights weights = to_column_net_weights(options.vertex_weights, graph);
      Hypergraph model;
      if (po.model == gnnpart::Model::kHypergraph) {
        model = build_column_net(graph, weights);
      } else {
        StochasticOptions so;
        so.training_set.assign(options.training_set.begin(), options.training_set.end());
        so.batch_size = options.batch_size;
        so.num_batches = options.num_batches;
        so.fanouts = options.fanouts;
        so.seed = options.seed;
        so.vertex_weights = weights;
        model = build_stochastic_hypergraph(graph, so);
      }
      check_options(po, model.num_nodes());
      partition = po.model == gnnpart::Model::kHypergraph ? partition_column_net(graph, model, po)
                                                          : partition_hypergraph(model, po);
      result.objective = hypergraph_objective(model, partition, po.objective);
    }
    const GraphMetrics metrics = compute_graph_metrics(graph, partition);
    if (po.model == gnnpart::Model::kGraph)
      result.objective = po.objective == gnnpart::Objective::kCut ? metrics.weighted_edge_cut
                                                                  : metrics.comm_volume;
    result.metrics = detail::to_metrics(metrics);
    result.blocks = std::move(partition.blocks);
    return result;
  });
}

Metrics evaluate_graph(const CsrGraph& graph, IndexArray blocks, std::uint32_t k, int threads) {
  const Partition partition = detail::to_partition(blocks, k, graph.num_nodes());
  return run_with_threads(
      threads, [&] { return detail::to_metrics(compute_graph_metrics(graph, partition)); });
}

LayoutInfo layout_graph(const CsrGraph& graph, IndexArray blocks, std::uint32_t k,
                        const std::string& dir, const LayoutOptions& options) {
  if (dir.empty())
    throw InvalidParameter("layout directory is empty");
  const Partition partition = detail::to_partition(blocks, k, graph.num_nodes());
  return run_with_threads(options.threads, [&] {
    const std::vector<LayoutPlan> plans = build_layout_plans(graph, partition, options.threads);
    io::LayoutWriteOptions write;
    write.graph_name = options.graph_name;
    write.model = options.model;
    write.objective = options.objective;
    io::write_layout_directory(dir, plans, partition, {}, write);
    const LayoutSummary summary = summarize_layout(plans);
    LayoutInfo info;
    info.rows_per_layer = summary.rows_per_layer;
    info.max_send_rows = summary.max_send_rows;
    info.max_recv_rows = summary.max_recv_rows;
    info.messages = summary.messages;
    return info;
  });
}

} // namespace

Options Options::preset_fast() {
  Options o;
  o.preset = Preset::kFast;
  return o;
}

Options Options::preset_default() {
  return Options{};
}

Options Options::preset_strong() {
  Options o;
  o.preset = Preset::kStrong;
  return o;
}

Options Options::preset_metis() {
  Options o;
  o.model = Model::kGraph;
  o.algorithm = Algorithm::kMetis;
  return o;
}

Result partition(const CsrView& graph, std::uint32_t k, const Options& options) {
  return detail::translate_errors(
      [&] { return partition_graph_checked(detail::to_graph(graph), k, options); });
}

Result partition(const EdgeView& edges, std::uint32_t k, const Options& options) {
  return detail::translate_errors(
      [&] { return partition_graph_checked(detail::to_graph(edges), k, options); });
}

Metrics evaluate(const CsrView& graph, IndexArray blocks, std::uint32_t k, int threads) {
  return detail::translate_errors(
      [&] { return evaluate_graph(detail::to_graph(graph), blocks, k, threads); });
}

Metrics evaluate(const EdgeView& edges, IndexArray blocks, std::uint32_t k, int threads) {
  return detail::translate_errors(
      [&] { return evaluate_graph(detail::to_graph(edges), blocks, k, threads); });
}

LayoutInfo build_layout(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                        const std::string& dir, const LayoutOptions& options) {
  return detail::translate_errors(
      [&] { return layout_graph(detail::to_graph(graph), blocks, k, dir, options); });
}

LayoutInfo build_layout(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                        const std::string& dir, const LayoutOptions& options) {
  return detail::translate_errors(
      [&] { return layout_graph(detail::to_graph(edges), blocks, k, dir, options); });
}

const char* version() {
  return GNNPART_VERSION;
}

} // namespace gnnpart::api
