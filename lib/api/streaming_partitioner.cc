// gnnpart::api::StreamingPartitioner: edges gathered per vertex, then streamed in vertex order
// through the one-pass (or restreaming) Fennel / LDG vertex partitioner of lib/streaming.
#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "api/graph_view.h"
#include "core/graph_builder.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "streaming/vertex_partitioner.h"

namespace gnnpart::api {
namespace {

// A vertex stream over an in-memory CSR graph, a fixed number of vertices per batch.
class CsrVertexStream final : public streaming::VertexStream {
public:
  explicit CsrVertexStream(const CsrGraph& graph) : graph_(graph) {
    path_ = "<memory>";
    num_nodes_ = graph.num_nodes();
    num_entries_ = graph.num_directed_edges();
  }
  void begin_pass() override {
    next_ = 0;
    entries_done_ = 0;
  }
  bool next_batch(streaming::VertexBatch& batch) override {
    batch.clear();
    if (next_ >= num_nodes_)
      return false;
    batch.first = next_;
    const NodeID last = std::min<NodeID>(num_nodes_, next_ + kBatchVertices);
    for (NodeID u = next_; u < last; ++u) {
      const auto neighbors = graph_.neighbors(u);
      batch.adjacency.insert(batch.adjacency.end(), neighbors.begin(), neighbors.end());
      batch.offsets.push_back(batch.adjacency.size());
    }
    entries_done_ += batch.adjacency.size();
    next_ = last;
    return true;
  }
  void end_pass() override {}

private:
  static constexpr NodeID kBatchVertices = 4096;
  const CsrGraph& graph_;
  NodeID next_ = 0;
};

} // namespace

struct StreamingPartitioner::State {
  EdgeList edges;
  BlockID k = 0;
  StreamingOptions options;
  bool finished = false;
};

StreamingPartitioner::StreamingPartitioner(std::uint64_t num_nodes, std::uint32_t k,
                                           const StreamingOptions& options) {
  detail::translate_errors([&] {
    if (k == 0)
      throw InvalidParameter("k must be >= 1");
    if (num_nodes < k)
      throw InvalidParameter(fmt::format("k = {} exceeds the {} vertices", k, num_nodes));
    if (num_nodes > kMaxNodeID)
      throw InvalidParameter(fmt::format("{} vertices exceed the id width", num_nodes));
    if (!(options.epsilon >= 0))
      throw InvalidParameter(fmt::format("epsilon = {} must be >= 0", options.epsilon));
    if (options.passes < 0)
      throw InvalidParameter("passes must be >= 1 (0: the default)");
    state_ = std::make_unique<State>();
    state_->edges.n = static_cast<NodeID>(num_nodes);
    state_->k = k;
    state_->options = options;
  });
}

StreamingPartitioner::~StreamingPartitioner() = default;
StreamingPartitioner::StreamingPartitioner(StreamingPartitioner&&) noexcept = default;
StreamingPartitioner& StreamingPartitioner::operator=(StreamingPartitioner&&) noexcept = default;

void StreamingPartitioner::add_edges(IndexArray sources, IndexArray targets) {
  detail::translate_errors([&] {
    if (!state_ || state_->finished)
      throw InvalidParameter("add_edges after finish()");
    if (sources.size() != targets.size())
      throw InvalidParameter(
          fmt::format("{} sources but {} targets", sources.size(), targets.size()));
    const auto n = static_cast<std::int64_t>(state_->edges.n);
    // Check the whole batch before appending, so a rejected batch leaves no trace.
    for (std::size_t i = 0; i < sources.size(); ++i) {
      if (sources[i] < 0 || sources[i] >= n || targets[i] < 0 || targets[i] >= n)
        throw InvalidParameter(fmt::format("edge {} ({}, {}) has an id outside [0, {})", i,
                                           sources[i], targets[i], n));
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
      state_->edges.sources.push_back(static_cast<NodeID>(sources[i]));
      state_->edges.targets.push_back(static_cast<NodeID>(targets[i]));
    }
  });
}

Result StreamingPartitioner::finish() {
  return detail::translate_errors([&] {
    if (!state_ || state_->finished)
      throw InvalidParameter("finish() called twice");
    state_->finished = true;
    const StreamingOptions& o = state_->options;
    return run_with_threads(o.threads, [&] {
      const CsrGraph graph = build_csr(state_->edges);
      state_->edges = EdgeList{};
      streaming::StreamOptions so;
      so.k = state_->k;
      so.epsilon = o.epsilon;
      so.seed = o.seed;
      so.algorithm =
          o.fennel ? streaming::StreamAlgorithm::kFennel : streaming::StreamAlgorithm::kLdg;
      so.objective =
          o.volume ? streaming::StreamObjective::kVolume : streaming::StreamObjective::kCut;
      so.passes = o.passes;
      so.threads = o.threads;
      CsrVertexStream stream(graph);
      Partition partition = streaming::stream_partition_vertices(stream, so);
      const GraphMetrics metrics = compute_graph_metrics(graph, partition);
      Result result;
      result.objective = o.volume ? metrics.comm_volume : metrics.weighted_edge_cut;
      result.metrics = detail::to_metrics(metrics);
      result.blocks = std::move(partition.blocks);
      return result;
    });
  });
}

} // namespace gnnpart::api
