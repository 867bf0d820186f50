#include "cost/minibatch_time.h"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "cost/neighbor_sampling.h"
#include "cost/slowest_rank.h"

namespace gnnpart::cost {
namespace {

// entries[r][p]: what rank r sends rank p in one all-to-all.
AllToAll all_to_all(const std::vector<std::vector<std::uint64_t>>& entries,
                    std::uint32_t entry_bytes) {
  const std::size_t k = entries.size();
  AllToAll a;
  a.entry_bytes = entry_bytes;
  a.sent.assign(k, 0);
  a.received.assign(k, 0);
  a.sent_to.assign(k, 0);
  a.received_from.assign(k, 0);
  for (std::size_t r = 0; r < k; ++r) {
    for (std::size_t p = 0; p < k; ++p) {
      if (p == r || entries[r][p] == 0)
        continue;
      a.sent[r] += entries[r][p];
      a.received[p] += entries[r][p];
      ++a.sent_to[r];
      ++a.received_from[p];
    }
  }
  return a;
}

std::vector<std::vector<std::uint64_t>> square(std::size_t k) {
  return std::vector<std::vector<std::uint64_t>>(k, std::vector<std::uint64_t>(k, 0));
}

// Nonzero share of a hidden layer's input after its ReLU (as the epoch model's).
constexpr double kReluDensity = 0.5;

// Nonzero share of the mean of `rows` input rows whose entries are nonzero with probability
// `density` each, independently: the GEMMs skip the aggregate's zero entries.
double aggregate_density(double density, double rows) {
  return 1 - std::pow(1 - std::clamp(density, 0.0, 1.0), std::max(rows, 1.0));
}

// The zero test of a zero-skipping loop over an operand of density d, per entry (mispredicted
// about min(d, 1 - d) of the time when the zeros fall at random).
double zero_tests(const CostProfile& p, double d, double width) {
  return 2 * std::min(d, 1 - d) * rate_at(p.zero_test, width);
}

std::vector<double> layer_widths(const GcnShape& shape) {
  std::vector<double> widths{static_cast<double>(shape.feature_dim)};
  for (int l = 1; l < shape.layers; ++l)
    widths.push_back(shape.hidden);
  widths.push_back(shape.classes);
  return widths;
}

// Prices the ranks' work segment by segment: compute accumulates per rank until an all-to-all
// (or the allreduce) closes the segment, which lasts as long as its slowest rank.
class StepPricer {
public:
  StepPricer(const CostProfile& profile, std::size_t ranks)
      : p_(profile), pending_(ranks, 0.0), work_(ranks),
        calibrated_slowest_(profile.rank_spread > 0
                                ? expected_slowest_of_equal(profile.ranks, profile.rank_spread)
                                : 1.0) {}

  void work(std::size_t rank, StepPart part, double seconds) {
    // The profile's rates are its slowest rank's; the ranks here run at the mean rate.
    pending_[rank] += seconds / calibrated_slowest_;
    work_[rank][static_cast<std::size_t>(part)] += seconds / calibrated_slowest_;
  }

  // Closes a segment with one all-to-all; returns the segment's seconds.
  double exchange(const AllToAll& a, double value_width) {
    const std::size_t k = pending_.size();
    std::vector<double> comm(k, 0.0);
    if (k > 1) {
      const double counts = allreduce_seconds(p_, 4.0 * static_cast<double>(k));
      for (std::size_t r = 0; r < k; ++r) {
        const double bytes = a.entry_bytes;
        const double send = a.sent_to[r] * p_.latency_s + static_cast<double>(a.sent[r]) * bytes *
                                                              byte_rate(a.sent[r], value_width);
        const double receive =
            a.received_from[r] * p_.latency_s +
            static_cast<double>(a.received[r]) * bytes * byte_rate(a.received[r], value_width);
        comm[r] = counts + std::max(send, receive) + sync_wait(r);
      }
    }
    return close(comm);
  }

  // Closes the last segment with the gradient allreduce of `bytes`.
  double allreduce(double bytes) {
    const std::size_t k = pending_.size();
    std::vector<double> comm(k, 0.0);
    if (k > 1) {
      for (std::size_t r = 0; r < k; ++r)
        comm[r] = sync_wait(r);
    }
    const double segment = close(comm);
    return segment + (k > 1 ? allreduce_seconds(p_, bytes) : 0.0);
  }

  const std::vector<StepParts>& rank_work() const { return work_; }

private:
  // Seconds per byte of `entries` values of an exchange whose rows are `width` values wide
  // (ids: width 1).
  double byte_rate(std::uint64_t entries, double width) const {
    if (p_.exchange_byte_grid.empty() || width <= 1)
      return p_.seconds_per_byte;
    return rate_at(p_.exchange_byte_grid, static_cast<double>(entries) / width, width);
  }
  double sync_wait(std::size_t r) const { return p_.sync_wait_s + p_.sync_jitter * pending_[r]; }
  double close(const std::vector<double>& comm) {
    const double slowest = expected_slowest(pending_, comm, p_.rank_spread);
    std::fill(pending_.begin(), pending_.end(), 0.0);
    return slowest;
  }

  const CostProfile& p_;
  std::vector<double> pending_;
  std::vector<StepParts> work_;
  double calibrated_slowest_ = 1;
};

} // namespace

FetchStepWork fetch_step_work(const CsrGraph& graph, const Partition& partition,
                              const std::vector<std::vector<NodeID>>& train,
                              const FetchBatchOptions& options, std::uint64_t epoch,
                              std::uint64_t batch, std::uint32_t feature_dim,
                              std::uint32_t value_bytes) {
  const std::size_t k = partition.k;
  const std::size_t layers = options.fanouts.size();
  FetchStepWork work;
  work.ranks.resize(k);
  std::vector<std::vector<NodeID>> frontier(k);
  std::vector<std::uint64_t> streams(k);
  for (std::size_t r = 0; r < k; ++r) {
    FetchRankWork& w = work.ranks[r];
    streams[r] = batch_stream(options.seed, epoch, batch, r);
    frontier[r] = draw_seeds(train[r], options.batch_size, streams[r]);
    w.seeds = frontier[r].size();
    for (auto* v : {&w.targets, &w.inputs, &w.entries, &w.drawn, &w.drawn_for})
      v->assign(layers, 0);
  }
  std::vector<NodeID> picked;
  for (std::size_t l = layers; l-- > 0;) {
    auto requests = square(k), replies = square(k);
    for (std::size_t r = 0; r < k; ++r) {
      FetchRankWork& w = work.ranks[r];
      picked.clear();
      for (NodeID v : frontier[r]) {
        const std::size_t before = picked.size();
        sample_neighbors(graph.neighbors(v), options.fanouts[l], streams[r], l, v, picked);
        const std::uint64_t count = picked.size() - before;
        const BlockID owner = partition.blocks[v];
        if (owner == r) {
          w.drawn[l] += count;
        } else { // r asks the owner, which draws and answers with the count and the sample
          ++requests[r][owner];
          replies[owner][r] += 1 + count;
          work.ranks[owner].drawn_for[l] += count;
        }
      }
      w.targets[l] = frontier[r].size();
      w.entries[l] = frontier[r].size() + picked.size();
      frontier[r].insert(frontier[r].end(), picked.begin(), picked.end());
      std::sort(frontier[r].begin(), frontier[r].end());
      frontier[r].erase(std::unique(frontier[r].begin(), frontier[r].end()), frontier[r].end());
      w.inputs[l] = frontier[r].size();
    }
    work.exchanges.push_back(all_to_all(requests, 4));
    work.exchanges.push_back(all_to_all(replies, 4));
  }
  auto ids = square(k), rows = square(k);
  for (std::size_t r = 0; r < k; ++r) {
    for (NodeID u : frontier[r]) {
      const BlockID owner = partition.blocks[u];
      if (owner != r) {
        ++ids[r][owner];
        rows[owner][r] += feature_dim;
        ++work.ranks[owner].rows_served;
      }
    }
  }
  work.exchanges.push_back(all_to_all(ids, 4));
  work.exchanges.push_back(all_to_all(rows, value_bytes));
  return work;
}

StepPrediction predict_fetch_step(const FetchStepWork& work, const GcnShape& shape,
                                  const CostProfile& p) {
  const std::size_t k = work.ranks.size();
  const std::size_t layers = static_cast<std::size_t>(shape.layers);
  if (k == 0 || shape.layers < 1 || shape.feature_dim == 0 || shape.hidden == 0 ||
      shape.classes == 0)
    throw InvalidParameter("cost model: no ranks, or a zero layer count or width");
  if (work.exchanges.size() != 2 * layers + 2 || work.ranks[0].targets.size() != layers)
    throw InvalidParameter("cost model: the shape's layers differ from the step's fanouts");
  if (!(p.sample_draw_s > 0) || !(p.sample_index_s > 0)) {
    throw InvalidParameter("cost profile has no sampling rates (sample_draw_s, sample_index_s): "
                           "calibrate it again with gnnpart-train --calibrate");
  }
  const std::vector<double> widths = layer_widths(shape);
  const double e = p.elementwise_s;
  StepPricer pricer(p, k);
  StepPrediction out;
  std::size_t next = 0; // the next exchange
  for (std::size_t l = layers; l-- > 0;) {
    out.sampling += pricer.exchange(work.exchanges[next++], 1); // requests
    for (std::size_t r = 0; r < k; ++r)
      pricer.work(r, StepPart::kSampling,
                  static_cast<double>(work.ranks[r].drawn_for[l]) * p.sample_draw_s);
    out.sampling += pricer.exchange(work.exchanges[next++], 1); // replies
    for (std::size_t r = 0; r < k; ++r) {
      const FetchRankWork& w = work.ranks[r];
      pricer.work(r, StepPart::kSampling,
                  static_cast<double>(w.drawn[l]) * p.sample_draw_s +
                      static_cast<double>(w.entries[l]) * p.sample_index_s);
    }
  }
  out.fetch += pricer.exchange(work.exchanges[next++], 1); // ids
  const double f = widths[0];
  // Rows are packed per destination and copied into one send buffer (fetch_minibatch.cc's
  // fetch_inputs and all_to_all).
  for (std::size_t r = 0; r < k; ++r)
    pricer.work(r, StepPart::kFetch, static_cast<double>(work.ranks[r].rows_served) * f * 2 * e);
  out.fetch += pricer.exchange(work.exchanges[next++], f);
  double parameters = 0;
  for (std::size_t l = 0; l < layers; ++l)
    parameters += widths[l] * widths[l + 1] + widths[l + 1];
  // Forward and backward of the sampled layers (trainer/sampled_layers.cc), rank by rank.
  for (std::size_t r = 0; r < k; ++r) {
    const FetchRankWork& w = work.ranks[r];
    const double fetched = static_cast<double>(work.exchanges.back().received[r]); // entries
    // The receive buffer zeroed and copied out per source; x0 zeroed and filled with the owned
    // and received rows; x0 once more as layer 0's input.
    pricer.work(r, StepPart::kFetch,
                fetched * 2 * e + static_cast<double>(w.inputs[0]) * f * 2 * e);
    double s = static_cast<double>(w.inputs[0]) * f * e;
    for (std::size_t l = 0; l < layers; ++l) {
      const double a = widths[l], o = widths[l + 1];
      const double targets = static_cast<double>(w.targets[l]);
      const double inputs = static_cast<double>(w.inputs[l]);
      const double entries = static_cast<double>(w.entries[l]);
      if (l > 0)
        s += inputs * a * 2 * e; // the ReLU's copy and pass
      s += targets * a * e + entries * a * spmm_rate(p, inputs, a, false); // mean aggregation
      const double d = aggregate_density(l == 0 ? shape.feature_density : kReluDensity,
                                         targets > 0 ? entries / targets : 0);
      s += targets * a * (d * o * rate_at(p.gemm, o) + zero_tests(p, d, o)) + targets * o * e;
    }
    s += static_cast<double>(w.targets[layers - 1]) * widths[layers] * 3 * e; // loss
    for (std::size_t l = layers; l-- > 0;) {
      const double a = widths[l], o = widths[l + 1];
      const double targets = static_cast<double>(w.targets[l]);
      const double inputs = static_cast<double>(w.inputs[l]);
      const double entries = static_cast<double>(w.entries[l]);
      const double d = aggregate_density(l == 0 ? shape.feature_density : kReluDensity,
                                         targets > 0 ? entries / targets : 0);
      s += targets * a * (d * o * rate_at(p.gemm_at_b, o) + zero_tests(p, d, o)) +
           targets * o * e; // dW (zero entries of the aggregate skipped), db
      if (l == 0)
        break;
      s += targets * o * a * rate_at(p.gemm_a_bt, o);                    // dagg
      s += inputs * a * e + entries * a * spmm_rate(p, inputs, a, true); // dx
      s += inputs * a * 2 * e;                                           // ReLU's gradient
    }
    s += parameters * e; // the gradients flattened for the allreduce
    pricer.work(r, StepPart::kLayers, s);
  }
  out.rank_parts = pricer.rank_work();
  const double last = pricer.allreduce((parameters + 1) * shape.value_bytes);
  out.allreduce = k > 1 ? allreduce_seconds(p, (parameters + 1) * shape.value_bytes) : 0.0;
  out.compute = last - out.allreduce;
  // Adam and the first layer's weight decay, the same on every rank.
  const double adam = parameters * p.adam_s + widths[0] * widths[1] * e;
  for (StepParts& parts : out.rank_parts) {
    parts[static_cast<std::size_t>(StepPart::kAdam)] = adam;
    double sum = 0;
    for (double t : parts)
      sum += t;
    out.rank_work.push_back(sum);
  }
  out.seconds = out.sampling + out.fetch + last + adam;
  return out;
}

void add_scaled(StepPrediction& sum, const StepPrediction& step, double share) {
  sum.seconds += step.seconds * share;
  sum.sampling += step.sampling * share;
  sum.fetch += step.fetch * share;
  sum.compute += step.compute * share;
  sum.allreduce += step.allreduce * share;
  sum.rank_work.resize(std::max(sum.rank_work.size(), step.rank_work.size()));
  sum.rank_parts.resize(std::max(sum.rank_parts.size(), step.rank_parts.size()));
  for (std::size_t r = 0; r < step.rank_work.size(); ++r)
    sum.rank_work[r] += step.rank_work[r] * share;
  for (std::size_t r = 0; r < step.rank_parts.size(); ++r) {
    for (std::size_t i = 0; i < step.rank_parts[r].size(); ++i)
      sum.rank_parts[r][i] += step.rank_parts[r][i] * share;
  }
}

StepTimeEstimate expected_fetch_step_seconds(const CsrGraph& graph, const Partition& partition,
                                             std::span<const NodeID> train,
                                             const FetchBatchOptions& options,
                                             const GcnShape& shape, const CostProfile& profile,
                                             std::uint32_t samples) {
  check_fetch_options(graph, partition, options);
  if (samples == 0)
    throw InvalidParameter("need at least one sample");
  const auto by_block = train_by_block(partition, train);
  const FetchBatchOptions fresh = fresh_options(options);
  std::vector<StepPrediction> steps(samples);
  tbb::parallel_for(std::uint32_t{0}, samples, [&](std::uint32_t s) {
    const FetchStepWork work = fetch_step_work(graph, partition, by_block, fresh, 0, s,
                                               shape.feature_dim, shape.value_bytes);
    steps[s] = predict_fetch_step(work, shape, profile);
  });
  // Summed in sample order, so the mean does not depend on the thread count.
  StepTimeEstimate estimate;
  std::vector<double> seconds(samples);
  for (std::uint32_t s = 0; s < samples; ++s) {
    seconds[s] = steps[s].seconds;
    add_scaled(estimate.mean, steps[s], 1.0 / samples);
  }
  estimate.seconds = sample_mean(seconds);
  estimate.samples = samples;
  return estimate;
}

} // namespace gnnpart::cost
