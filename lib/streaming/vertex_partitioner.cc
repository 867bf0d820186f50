#include "streaming/vertex_partitioner.h"

#include <time.h>

#include <chrono>
#include <string>

#include <fmt/core.h>

#include "core/errors.h"
#include "streaming/block_loads.h"
#include "streaming/progress.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

class VertexScorer {
public:
  VertexScorer(NodeID n, EdgeID m, const StreamOptions& options, std::span<const float> weights)
      : options_(options), k_(options.k), loads_(options.k),
        max_weight_(max_block_weight(n, options.k, options.epsilon)), net_weights_(weights),
        blocks_(n, kInvalidBlockID), gain_(options.k, 0.0), penalty_(options.k, 0.0) {
    gamma_ = options.fennel_gamma;
    alpha_ = options.fennel_alpha > 0 ? options.fennel_alpha
                                      : fennel_alpha(n, static_cast<double>(m), options.k, gamma_);
    if (options.objective == StreamObjective::kVolume) {
      net_state_.assign(n, kNetUnassigned);
      if (!weights.empty()) {
        double sum = 0;
        for (const float w : weights)
          sum += w;
        const double mean = n > 0 ? sum / n : 1.0;
        alpha_ *= mean > 0 ? mean : 1.0;
      }
    }
    for (BlockID b = 0; b < k_; ++b)
      penalty_[b] = penalty(0);
  }

  std::vector<BlockID> take_blocks() { return std::move(blocks_); }
  void set_blocks(std::vector<BlockID> blocks) {
    for (const BlockID b : blocks) {
      if (b >= k_)
        throw InvalidParameter("initial partition: block id >= k");
      change_load(b, 1);
    }
    blocks_ = std::move(blocks);
  }

  void place(NodeID u, std::span<const NodeID> neighbors) {
    const BlockID old = blocks_[u];
    if (old != kInvalidBlockID)
      change_load(old, -1);
    if (options_.objective == StreamObjective::kVolume) {
      collect_volume_gains(u, neighbors);
    } else {
      collect_cut_gains(neighbors);
    }
    BlockID best = loads_.lightest();
    double best_score = score(best, 0.0);
    for (const BlockID b : touched_) {
      const double gain = gain_[b];
      gain_[b] = 0.0;
      if (loads_[b] + 1 > max_weight_)
        continue;
      const double s = score(b, gain);
      if (s > best_score || (s == best_score && (loads_[b] < loads_[best] ||
                                                 (loads_[b] == loads_[best] && b < best)))) {
        best = b;
        best_score = s;
      }
    }
    touched_.clear();
    blocks_[u] = best;
    change_load(best, 1);
    if (!net_state_.empty())
      update_net_states(u, best, neighbors);
  }

private:
  double penalty(Weight load) const {
    if (options_.algorithm == StreamAlgorithm::kLdg)
      return 0.0;
    if (gamma_ == 1.5)
      return fennel_penalty_15(static_cast<double>(load), alpha_);
    return fennel_penalty(static_cast<double>(load), alpha_, gamma_);
  }
  double score(BlockID b, double gain) const {
    if (options_.algorithm == StreamAlgorithm::kLdg) {
      return ldg_score(gain, static_cast<double>(loads_[b]), static_cast<double>(max_weight_));
    }
    return gain - penalty_[b];
  }
  void change_load(BlockID b, Weight delta) {
    loads_.add(b, delta);
    penalty_[b] = penalty(loads_[b]);
  }
  void touch(BlockID b, double gain) {
    if (gain_[b] == 0.0)
      touched_.push_back(b);
    gain_[b] += gain;
  }

  void collect_cut_gains(std::span<const NodeID> neighbors) {
    for (const NodeID v : neighbors) {
      const BlockID b = blocks_[v];
      if (b != kInvalidBlockID)
        touch(b, 1.0);
    }
  }

  double net_weight(NodeID v) const { return net_weights_.empty() ? 1.0 : net_weights_[v]; }

  // Gain of b = the lambda-1 that placing u in b avoids: u's own net ({u} and N(u)) if b
  // already holds one of its pins, and the net of each neighbour v if b already holds one of its
  // pins — v itself when v is assigned, else the single block its assigned pins lie in
  // (FREIGHT-style state; nets already cut by unassigned v are not tracked).
  void collect_volume_gains(NodeID u, std::span<const NodeID> neighbors) {
    const double own = net_weight(u);
    constexpr double kTiny = 1e-9; // keeps a touched block touched when weights are zero
    for (const NodeID v : neighbors) {
      const BlockID b = blocks_[v];
      if (b != kInvalidBlockID) {
        touch(b, net_weight(v) + kTiny);
        if (!own_hit(b))
          touch(b, own);
        continue;
      }
      const BlockID state = net_state_[v];
      if (state < k_)
        touch(state, net_weight(v) + kTiny);
    }
    own_hits_.clear();
  }
  bool own_hit(BlockID b) {
    for (const BlockID seen : own_hits_) {
      if (seen == b)
        return true;
    }
    if (own_hits_.size() < 64)
      own_hits_.push_back(b);
    return false;
  }

  void update_net_states(NodeID u, BlockID b, std::span<const NodeID> neighbors) {
    BlockID own = b;
    for (const NodeID v : neighbors) {
      const BlockID bv = blocks_[v];
      if (bv != kInvalidBlockID)
        own = net_state_after(own, bv);
      net_state_[v] = net_state_after(net_state_[v], b);
    }
    net_state_[u] = own;
  }

  const StreamOptions& options_;
  BlockID k_;
  BlockLoads loads_;
  Weight max_weight_;
  std::span<const float> net_weights_;
  std::vector<BlockID> blocks_;
  std::vector<BlockID> net_state_;
  std::vector<double> gain_;
  std::vector<double> penalty_;
  std::vector<BlockID> touched_;
  std::vector<BlockID> own_hits_;
  double alpha_ = 0;
  double gamma_ = 1.5;
};

} // namespace

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

void PassTimer::record(VertexStreamStats* stats) const {
  if (stats == nullptr)
    return;
  stats->pass_seconds.push_back(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  stats->pass_cpu_seconds.push_back(thread_cpu_seconds() - cpu_start_);
}

Partition stream_partition_vertices(VertexStream& stream, const StreamOptions& options,
                                    std::span<const float> net_weights, ProgressMeter* progress,
                                    VertexStreamStats* stats, std::vector<BlockID> initial) {
  check_stream_options(options);
  if (options.algorithm != StreamAlgorithm::kLdg && options.algorithm != StreamAlgorithm::kFennel) {
    throw InvalidParameter("stream_partition_vertices: algorithm must be ldg or fennel");
  }
  const NodeID n = stream.num_nodes();
  if (!net_weights.empty() && net_weights.size() != n) {
    throw InvalidParameter("net weights: expected one per vertex");
  }
  VertexScorer scorer(n, stream.num_edges(), options, net_weights);
  if (!initial.empty()) {
    if (initial.size() != n)
      throw InvalidParameter("initial partition: expected n blocks");
    scorer.set_blocks(std::move(initial));
  }
  VertexBatch batch;
  const int passes = stream_passes(options);
  for (int pass = 0; pass < passes; ++pass) {
    const PassTimer timer;
    if (progress != nullptr) {
      progress->begin(
          fmt::format("{} pass {}/{}", to_string(options.algorithm), pass + 1, passes),
          stream.num_edges(), false);
    }
    stream.begin_pass();
    while (stream.next_batch(batch)) {
      for (NodeID i = 0; i < batch.size(); ++i)
        scorer.place(batch.first + i, batch.neighbors(i));
      if (progress != nullptr) {
        progress->update(stream.entries_done() / 2, stream.entries_done() / 2);
      }
    }
    stream.end_pass();
    if (progress != nullptr)
      progress->end(stream.entries_done() / 2, stream.entries_done() / 2);
    timer.record(stats);
    if (stats != nullptr)
      stats->edges_per_pass = stream.entries_done() / 2;
  }
  Partition partition;
  partition.k = options.k;
  partition.blocks = scorer.take_blocks();
  return partition;
}

} // namespace gnnpart::streaming
