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

// The API's objective and the library's resolved one carry the same values.
static_assert(static_cast<int>(Objective::kSoed) == static_cast<int>(gnnpart::Objective::kSoed));
static_assert(static_cast<int>(Objective::kEpoch) == static_cast<int>(gnnpart::Objective::kEpoch));

ColumnNetWeights to_column_net_weights(VertexWeights weights, const CsrGraph& graph) {
  switch (weights) {
  case VertexWeights::kDefault:
    return graph.has_vertex_weights() ? ColumnNetWeights::kGraph : ColumnNetWeights::kUnit;
  case VertexWeights::kDegree:
    return ColumnNetWeights::kDegree;
  case VertexWeights::kUnit:
    return ColumnNetWeights::kUnit;
  case VertexWeights::kGraph:
    return ColumnNetWeights::kGraph;
  }
  throw InvalidParameter("unknown vertex weights");
}

// The one validation of this entry point; everything below takes the validated options.
PartitionOptions to_partition_options(std::uint32_t k, const Options& options, NodeID n) {
  PartitionOptions po;
  po.k = k;
  po.epsilon = options.epsilon;
  po.seed = options.seed;
  po.threads = options.threads;
  po.model = options.model;
  po.algorithm = options.algorithm;
  po.objective = options.objective == Objective::kDefault
                     ? default_objective(po.model)
                     : static_cast<gnnpart::Objective>(options.objective);
  po.preset = options.preset;
  po.flows = options.flows;
  validate_options(po, n);
  if (po.objective == gnnpart::Objective::kEpoch)
    throw InvalidParameter("objective epoch needs a machine profile, which only the CLI takes "
                           "(gnnpart partition --objective epoch --cost PROFILE.json)");
  return po;
}

Result partition_graph_checked(const CsrGraph& graph, std::uint32_t k, const Options& options) {
  const PartitionOptions po = to_partition_options(k, options, graph.num_nodes());
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
