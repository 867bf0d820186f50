// gnnpart::api: predict_epoch_time / predict_step_time (include/gnnpart/gnnpart.hpp), the cost
// model of lib/cost over borrowed views: the figures of `gnnpart evaluate --cost` and
// `gnnpart evaluate --minibatch --cost`.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api/graph_view.h"
#include "core/parallel.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "cost/minibatch_rows.h"
#include "cost/minibatch_time.h"
#include "cost/profile.h"

namespace gnnpart::api {
namespace {

// One default per option: the API's shape is the library's (and so the CLI's).
static_assert(GcnShape{}.layers == cost::GcnShape{}.layers);
static_assert(GcnShape{}.feature_dim == cost::GcnShape{}.feature_dim);
static_assert(GcnShape{}.hidden == cost::GcnShape{}.hidden);
static_assert(GcnShape{}.classes == cost::GcnShape{}.classes);
static_assert(GcnShape{}.dropout == cost::GcnShape{}.dropout);
static_assert(GcnShape{}.feature_density == cost::GcnShape{}.feature_density);

cost::GcnShape to_cost_shape(const GcnShape& shape) {
  if (shape.layers < 1 || shape.feature_dim == 0 || shape.hidden == 0 || shape.classes == 0)
    throw InvalidParameter("GCN shape: layers, feature_dim, hidden and classes must be >= 1");
  if (!(shape.dropout >= 0 && shape.dropout < 1) ||
      !(shape.feature_density >= 0 && shape.feature_density <= 1))
    throw InvalidParameter("GCN shape: dropout must be in [0, 1), feature_density in [0, 1]");
  cost::GcnShape s;
  s.layers = shape.layers;
  s.feature_dim = shape.feature_dim;
  s.hidden = shape.hidden;
  s.classes = shape.classes;
  s.dropout = shape.dropout;
  s.feature_density = shape.feature_density;
  return s;
}

TimePrediction epoch_time(const CsrGraph& graph, IndexArray blocks, std::uint32_t k,
                          const std::string& profile_path, const GcnShape& shape, int threads) {
  const Partition partition = detail::to_partition(blocks, k, graph.num_nodes());
  const cost::GcnShape s = to_cost_shape(shape);
  const cost::CostProfile profile = cost::read_profile(profile_path);
  return run_with_threads(threads, [&] {
    const cost::EpochPrediction epoch =
        cost::predict_epoch(cost::block_traffic(graph, partition), s, profile);
    TimePrediction t;
    t.seconds = epoch.epoch_seconds;
    t.critical_rank = static_cast<std::uint32_t>(epoch.critical_rank);
    for (const cost::RankTime& rank : epoch.ranks)
      t.rank_seconds.push_back(rank.total);
    return t;
  });
}

// The trainer samples each vertex's neighbours in increasing id order; a CsrView may list them
// in any order (the partition's costs do not depend on it, the draws do).
CsrGraph with_sorted_lists(CsrGraph graph) {
  const NodeID n = graph.num_nodes();
  NodeID u = 0;
  while (u < n && std::is_sorted(graph.neighbors(u).begin(), graph.neighbors(u).end()))
    ++u;
  if (u == n)
    return graph;
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  adjacency.reserve(2 * static_cast<std::size_t>(graph.num_edges()));
  for (NodeID v = 0; v < n; ++v) {
    const auto list = graph.neighbors(v);
    adjacency.insert(adjacency.end(), list.begin(), list.end());
    std::sort(adjacency.end() - static_cast<std::ptrdiff_t>(list.size()), adjacency.end());
    offsets.push_back(adjacency.size());
  }
  return CsrGraph(std::move(offsets), std::move(adjacency));
}

TimePrediction step_time(CsrGraph input, IndexArray blocks, std::uint32_t k,
                         const std::string& profile_path, const StepSampling& sampling,
                         const GcnShape& shape, int threads) {
  const CsrGraph graph = with_sorted_lists(std::move(input));
  const Partition partition = detail::to_partition(blocks, k, graph.num_nodes());
  cost::FetchBatchOptions batches;
  batches.batch_size = sampling.batch_size;
  batches.fanouts = cost::input_layer_first(sampling.fanouts);
  batches.seed = sampling.seed;
  if (sampling.samples == 0)
    throw InvalidParameter("samples must be at least 1");
  const std::vector<NodeID> train =
      cost::training_vertices(graph.num_nodes(), std::vector<NodeID>(sampling.training_set.begin(),
                                                                     sampling.training_set.end()));
  cost::GcnShape s = to_cost_shape(shape);
  s.layers = static_cast<int>(batches.fanouts.size());
  const cost::CostProfile profile = cost::read_profile(profile_path);
  return run_with_threads(threads, [&] {
    const cost::StepTimeEstimate estimate = cost::expected_fetch_step_seconds(
        graph, partition, train, batches, s, profile, sampling.samples);
    TimePrediction t;
    t.seconds = estimate.seconds.mean;
    t.standard_error = estimate.seconds.standard_error;
    t.rank_seconds = estimate.mean.rank_work;
    t.critical_rank = static_cast<std::uint32_t>(
        std::max_element(t.rank_seconds.begin(), t.rank_seconds.end()) - t.rank_seconds.begin());
    return t;
  });
}

} // namespace

TimePrediction predict_epoch_time(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                                  const std::string& profile, const GcnShape& shape, int threads) {
  return detail::translate_errors(
      [&] { return epoch_time(detail::to_graph(graph), blocks, k, profile, shape, threads); });
}

TimePrediction predict_epoch_time(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                                  const std::string& profile, const GcnShape& shape, int threads) {
  return detail::translate_errors(
      [&] { return epoch_time(detail::to_graph(edges), blocks, k, profile, shape, threads); });
}

TimePrediction predict_step_time(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                                 const std::string& profile, const StepSampling& sampling,
                                 const GcnShape& shape, int threads) {
  return detail::translate_errors([&] {
    return step_time(detail::to_graph(graph), blocks, k, profile, sampling, shape, threads);
  });
}

TimePrediction predict_step_time(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                                 const std::string& profile, const StepSampling& sampling,
                                 const GcnShape& shape, int threads) {
  return detail::translate_errors([&] {
    return step_time(detail::to_graph(edges), blocks, k, profile, sampling, shape, threads);
  });
}

} // namespace gnnpart::api
