#include "streaming/batch_restream.h"

#include <algorithm>
#include <span>

#include "core/partition.h"
#include "core/random.h"
#include "streaming/batch_model.h"
#include "streaming/vertex_partitioner.h"

namespace gnnpart::streaming {
namespace {

// Edge weight of the model cut by part (batch-batch edges count twice, anchor edges once; the
// same for every candidate, so comparisons are exact).
Weight model_cut(const BatchModel& model, std::span<const BlockID> part) {
  const CsrGraph& graph = model.graph;
  const NodeID b = model.batch_size;
  Weight cut = 0;
  for (NodeID i = 0; i < b; ++i) {
    for (EdgeID e = graph.first_edge(i); e < graph.last_edge(i); ++e) {
      const NodeID t = graph.edge_target(e);
      const BlockID other = t >= b ? t - b : part[t];
      cut += other != part[i] ? graph.edge_weight(e) : 0;
    }
  }
  return cut;
}

class BatchRestreamer {
public:
  BatchRestreamer(const StreamOptions& options, int pass, std::vector<BlockID>& blocks, EdgeID m)
      : options_(options), pass_(pass), blocks_(blocks), loads_(options.k, 0),
        max_weight_(max_block_weight(static_cast<NodeID>(blocks.size()), options.k,
                                     options.epsilon)) {
    for (const BlockID b : blocks_)
      ++loads_[b];
    const double average =
        blocks.empty() ? 0.0 : 2.0 * static_cast<double>(m) / static_cast<double>(blocks.size());
    entry_budget_ =
        static_cast<EdgeID>(2.0 * options.batch_vertices * std::max(1.0, average));
    offsets_.push_back(0);
  }

  void add(NodeID u, std::span<const NodeID> neighbors) {
    if (size() == 0)
      first_ = u;
    targets_.insert(targets_.end(), neighbors.begin(), neighbors.end());
    offsets_.push_back(targets_.size());
    if (size() >= options_.batch_vertices || targets_.size() >= entry_budget_)
      solve();
  }

  RestreamCounts finish() {
    if (size() > 0)
      solve();
    return counts_;
  }

private:
  NodeID size() const { return static_cast<NodeID>(offsets_.size() - 1); }

  void solve() {
    const NodeID b = size();
    std::vector<NodeID> vertices(b);
    std::vector<BlockID> current(b);
    for (NodeID i = 0; i < b; ++i) {
      vertices[i] = first_ + i;
      current[i] = blocks_[first_ + i];
      --loads_[current[i]];
    }
    const BatchModel model = build_batch_model(
        std::span<const NodeID>(vertices),
        [&](NodeID i) {
          return std::span<const NodeID>(targets_.data() + offsets_[i],
                                         targets_.data() + offsets_[i + 1]);
        },
        [&](NodeID v) { return v >= first_ && v - first_ < b ? v - first_ : kInvalidNodeID; },
        std::span<const BlockID>(blocks_), std::span<const Weight>(loads_));
    refine_batch(model, options_.k, max_weight_, options_.batch_refinement_rounds, current);
    std::vector<BlockID> solved =
        solve_batch_multilevel(model, options_.k, max_weight_, options_.epsilon,
                               derive_seed(options_.seed, pass_, counts_.batches),
                               options_.batch_refinement_rounds);
    if (solved.empty()) {
      ++counts_.fallbacks;
    } else if (model_cut(model, solved) < model_cut(model, current)) {
      current.swap(solved);
      ++counts_.improved;
    }
    for (NodeID i = 0; i < b; ++i) {
      blocks_[first_ + i] = current[i];
      ++loads_[current[i]];
    }
    ++counts_.batches;
    offsets_.resize(1);
    targets_.clear();
  }

  const StreamOptions& options_;
  int pass_;
  std::vector<BlockID>& blocks_;
  std::vector<Weight> loads_;
  Weight max_weight_;
  EdgeID entry_budget_ = 0;
  NodeID first_ = 0;
  std::vector<EdgeID> offsets_;
  std::vector<NodeID> targets_;
  RestreamCounts counts_;
};

} // namespace

RestreamCounts restream_batches(VertexStream& stream, const StreamOptions& options, int pass,
                                std::vector<BlockID>& blocks) {
  BatchRestreamer restreamer(options, pass, blocks, stream.num_edges());
  VertexBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    for (NodeID i = 0; i < batch.size(); ++i)
      restreamer.add(batch.first + i, batch.neighbors(i));
  }
  stream.end_pass();
  return restreamer.finish();
}

} // namespace gnnpart::streaming
