#include "cost/epoch_model.h"

#include <algorithm>

#include "core/errors.h"
#include "cost/slowest_rank.h"

namespace gnnpart::cost {
namespace {

// Nonzero share of a hidden layer's input after its ReLU (about half of a GCN's
// pre-activations are negative).
constexpr double kReluDensity = 0.5;

struct Segment {
  std::vector<double> compute; // per rank
  std::vector<double> comm;    // exposed communication per rank
};

// Prices one rank's epoch, segment by segment, exactly in the order of gnnpart-train's gcn.cc.
class RankPricer {
public:
  // mean_rows: the rows every rank sends per exchange on average (what a shared medium carries
  // per rank).
  RankPricer(const BlockTraffic& block, const GcnShape& shape, const CostProfile& profile,
             double mean_rows)
      : b_(block), shape_(shape), p_(profile), mean_rows_(mean_rows) {}

  // Appends one (compute, exposed comm) pair per exchange, then the trailing compute.
  void price(std::vector<double>& compute, std::vector<double>& comm, RankTime& time) {
    const std::vector<std::uint32_t> widths = layer_widths();
    const double n = static_cast<double>(b_.rows);
    const double drop = shape_.dropout;
    std::vector<double> density(shape_.layers); // of each layer's input after dropout
    std::vector<bool> transform_first(shape_.layers);
    for (int l = 0; l < shape_.layers; ++l) {
      const double a = widths[l], out = widths[l + 1];
      const double before = l == 0 ? shape_.feature_density : kReluDensity;
      density[l] = before * (1 - drop);
      transform_first[l] = out < a;
      work(Phase::kCopy, elementwise(n * a * (l == 0 ? 1 : 2))); // copy (and ReLU)
      if (drop > 0) // decisions on the nonzero entries, the mask of a hidden layer
        work(Phase::kDropout, n * a * before * p_.dropout_s + zero_tests(n * a, before, 1) +
                                  (l > 0 ? elementwise(n * a) : 0));
      const double w = transform_first[l] ? out : a;
      if (transform_first[l])
        work(Phase::kGemm,
             n * a * density[l] * out * rate_at(p_.gemm, out) + zero_tests(n * a, density[l], out));
      exchange(w, true, compute, comm, time);
      if (!transform_first[l])
        work(Phase::kGemm, n * a * out * rate_at(p_.gemm, out));
      work(Phase::kBias, elementwise(n * out));
    }
    work(Phase::kLoss, elementwise(n * widths.back() * 3)); // softmax cross-entropy, gradient
    for (int l = shape_.layers; l-- > 0;) {
      const double a = widths[l], out = widths[l + 1];
      work(Phase::kBias, elementwise(n * out)); // bias gradient
      if (transform_first[l]) {
        work(Phase::kSpmmHalo, elementwise(n * out)); // the zeroed gradient dT
        exchange(out, false, compute, comm, time);
        work(Phase::kGemmBackward, n * a * density[l] * out * rate_at(p_.gemm_at_b, out) +
                                       zero_tests(n * a, density[l], out));
        if (l > 0)
          work(Phase::kGemmBackward, n * out * a * rate_at(p_.gemm_a_bt, out));
      } else {
        work(Phase::kGemmBackward, n * a * out * rate_at(p_.gemm_at_b, out));
        if (l > 0) {
          work(Phase::kGemmBackward, n * out * a * rate_at(p_.gemm_a_bt, out));
          work(Phase::kSpmmHalo, elementwise(n * a)); // the zeroed input gradient
          exchange(a, false, compute, comm, time);
        }
      }
      if (l > 0)
        work(Phase::kMask, elementwise(n * a * 2) + zero_tests(n * a, kReluDensity, 1));
    }
    work(Phase::kAdam, parameters() * p_.adam_s);
    compute.push_back(pending_);
    comm.push_back(sync_wait()); // the allreduce synchronises too
    time.compute += pending_;
    time.exposed_comm += comm.back();
    phases_[phase_index(Phase::kWait)] += comm.back();
    time.phases = phases_;
  }

  double parameters() const {
    const std::vector<std::uint32_t> widths = layer_widths();
    double count = 0;
    for (int l = 0; l < shape_.layers; ++l)
      count += static_cast<double>(widths[l]) * widths[l + 1] + widths[l + 1];
    return count;
  }

private:
  std::vector<std::uint32_t> layer_widths() const {
    std::vector<std::uint32_t> widths{shape_.feature_dim};
    for (int l = 1; l < shape_.layers; ++l)
      widths.push_back(shape_.hidden);
    widths.push_back(shape_.classes);
    return widths;
  }
  double elementwise(double entries) const { return entries * p_.elementwise_s; }
  // The extra wait of a synchronisation that ends a segment of pending_ seconds' compute.
  double sync_wait() const { return p_.sync_wait_s + p_.sync_jitter * pending_; }
  // The zero test of a zero-skipping loop over `entries` of density d: mispredicted when the
  // zeros fall at random (dropout, ReLU), about min(d, 1 - d) of the time.
  double zero_tests(double entries, double d, double width) const {
    return entries * 2 * std::min(d, 1 - d) * rate_at(p_.zero_test, width);
  }
  // SpMM seconds per nonzero x column on this block (its rows set the operands' size).
  double spmm_rate(double w, bool transposed) const {
    return cost::spmm_rate(p_, static_cast<double>(b_.rows), w, transposed);
  }
  // Seconds of one SpMM pass at width w over `nnz` nonzeros whose operand reads have the
  // histogram `reuse`: reads of rows still in the cache (their stack distance times a row's
  // bytes below the profile's cache) at the banded blocks' rate, the others at the random ones'.
  double spmm_seconds(double nnz, const ReuseHistogram& reuse, double w, bool transposed) const {
    const double far = spmm_rate(w, transposed);
    const RateGrid& near_grid = transposed ? p_.spmm_transposed_near_grid : p_.spmm_near_grid;
    if (near_grid.empty() || !(p_.reuse_cache_bytes > 0) || reuse.empty())
      return nnz * w * far;
    const double near = rate_at(near_grid, static_cast<double>(b_.rows), w);
    const double hits =
        std::min(nnz, reuse.reads_within(p_.reuse_cache_bytes / (w * shape_.value_bytes)));
    return w * (hits * std::min(far, near) + (nnz - hits) * far);
  }
  // Packing or unpacking `rows` rows of width w: the trainer's HaloExchange as calibrated (by
  // rows exchanged), else an elementwise copy.
  double exchange_entries(const RateGrid& grid, double rows, double w) const {
    return rows * w * (grid.empty() ? p_.elementwise_s : rate_at(grid, rows, w));
  }
  // Seconds per byte of an exchange moving `rows` rows of width w.
  double byte_rate(double rows, double w) const {
    return p_.exchange_byte_grid.empty() ? p_.seconds_per_byte
                                         : rate_at(p_.exchange_byte_grid, rows, w);
  }
  void work(Phase phase, double seconds) {
    pending_ += seconds;
    phases_[phase_index(phase)] += seconds;
  }

  // One exchange of rows of width w: pack, post, local SpMM (hiding part of the transfer), wait,
  // unpack, halo SpMM. Forward sends the send list; backward (transposed) the receive list.
  void exchange(double w, bool forward, std::vector<double>& compute, std::vector<double>& comm,
                RankTime& time) {
    const double halo_spmm =
        spmm_seconds(static_cast<double>(b_.halo_nnz), b_.halo_reuse, w, !forward);
    const double out_rows = forward ? b_.send_rows : b_.recv_rows;
    const double in_rows = forward ? b_.recv_rows : b_.send_rows;
    const double out_msgs = forward ? b_.send_messages : b_.recv_messages;
    const double in_msgs = forward ? b_.recv_messages : b_.send_messages;
    const double bytes = w * shape_.value_bytes;
    if (!forward) // the transposed halo SpMM comes before posting
      work(Phase::kSpmmHalo, halo_spmm);
    work(Phase::kPack, exchange_entries(p_.pack_grid, out_rows, w));
    const double local =
        spmm_seconds(static_cast<double>(b_.local_nnz), b_.local_reuse, w, !forward);
    work(Phase::kSpmmLocal, local);
    // Over a medium that all ranks share, a rank's transfer ends when everybody's bytes have
    // gone through: the mean rank's; over links of its own, when its own have.
    const double s = out_rows + in_rows > 0 ? p_.shared_network : 0.0;
    const double shared = mean_rows_ * bytes * byte_rate(mean_rows_, w);
    const double send =
        out_msgs * p_.latency_s + (1 - s) * out_rows * bytes * byte_rate(out_rows, w) + s * shared;
    const double receive =
        in_msgs * p_.latency_s + (1 - s) * in_rows * bytes * byte_rate(in_rows, w) + s * shared;
    const double exposed =
        std::max(0.0, std::max(send, receive) - p_.overlap * local) + sync_wait();
    compute.push_back(pending_);
    comm.push_back(exposed);
    time.compute += pending_;
    time.send += send;
    time.receive += receive;
    time.exposed_comm += exposed;
    phases_[phase_index(Phase::kWait)] += exposed;
    pending_ = 0;
    work(Phase::kUnpack, exchange_entries(p_.unpack_grid, in_rows, w)); // or add gradients
    if (forward)
      work(Phase::kSpmmHalo, halo_spmm);
  }

  const BlockTraffic& b_;
  const GcnShape& shape_;
  const CostProfile& p_;
  double mean_rows_ = 0;
  double pending_ = 0;
  PhaseSeconds phases_{};
};

} // namespace

EpochPrediction predict_epoch(const std::vector<BlockTraffic>& blocks, const GcnShape& shape,
                              const CostProfile& profile) {
  if (shape.layers < 1 || shape.feature_dim == 0 || shape.hidden == 0 || shape.classes == 0)
    throw InvalidParameter("cost model: layers, feature dim, hidden and classes must be >= 1");
  if (blocks.empty())
    throw InvalidParameter("cost model: no blocks");
  const std::size_t k = blocks.size();
  EpochPrediction prediction;
  prediction.ranks.resize(k);
  std::vector<std::vector<double>> compute(k), comm(k);
  double parameters = 0, mean_rows = 0;
  for (const BlockTraffic& b : blocks)
    mean_rows += static_cast<double>(b.send_rows) / static_cast<double>(k);
  for (std::size_t r = 0; r < k; ++r) {
    RankPricer pricer(blocks[r], shape, profile, mean_rows);
    pricer.price(compute[r], comm[r], prediction.ranks[r]);
    parameters = pricer.parameters();
    if (k == 1) { // one rank exchanges nothing and waits for no one
      std::fill(comm[r].begin(), comm[r].end(), 0.0);
      RankTime alone{prediction.ranks[r].compute};
      alone.phases = prediction.ranks[r].phases;
      alone.phases[phase_index(Phase::kWait)] = 0;
      prediction.ranks[r] = alone;
    }
  }
  // Gradients plus the loss and the correct count, as one allreduce of doubles.
  prediction.allreduce_seconds =
      k > 1 ? allreduce_seconds(profile, (parameters + 2) * shape.value_bytes) : 0;
  const std::size_t segments = compute[0].size();
  // The profile's kernel rates are its slowest rank's (every rank timed at once): with a speed
  // spread, that is the mean rank's rate times the expected slowest of its ranks. The ranks here
  // run at the mean rate, and each segment takes their expected slowest.
  const double calibrated_slowest =
      profile.rank_spread > 0 ? expected_slowest_of_equal(profile.ranks, profile.rank_spread) : 1.0;
  if (calibrated_slowest != 1.0) {
    for (RankTime& t : prediction.ranks) {
      t.compute /= calibrated_slowest;
      for (std::size_t i = 0; i < kPhaseCount; ++i) {
        if (i != phase_index(Phase::kWait))
          t.phases[i] /= calibrated_slowest;
      }
    }
  }
  std::vector<double> segment_compute(k), segment_comm(k);
  for (std::size_t s = 0; s < segments; ++s) {
    // The expected slowest rank when the ranks' speeds scatter (rank_spread; 0: the slowest).
    for (std::size_t r = 0; r < k; ++r) {
      segment_compute[r] = compute[r][s] / calibrated_slowest;
      segment_comm[r] = comm[r][s];
    }
    double slowest = expected_slowest(segment_compute, segment_comm, profile.rank_spread);
    // The trailing segment ends in the allreduce: every rank waits for the slowest.
    if (s + 1 == segments)
      slowest += prediction.allreduce_seconds;
    prediction.segment_seconds.push_back(slowest);
    prediction.epoch_seconds += slowest;
    for (std::size_t r = 0; r < k; ++r) {
      const double own =
          segment_compute[r] + comm[r][s] + (s + 1 == segments ? prediction.allreduce_seconds : 0);
      prediction.ranks[r].wait += slowest - own;
      // The trainer waits for the last segment's slowest rank inside MPI_Allreduce.
      const Phase where = s + 1 == segments ? Phase::kAllreduce : Phase::kWait;
      prediction.ranks[r].phases[phase_index(where)] += slowest - own;
    }
  }
  double least_wait = -1;
  for (std::size_t r = 0; r < k; ++r) {
    RankTime& t = prediction.ranks[r];
    t.total = prediction.epoch_seconds;
    t.phases[phase_index(Phase::kAllreduce)] += prediction.allreduce_seconds;
    if (least_wait < 0 || t.wait < least_wait) {
      least_wait = t.wait;
      prediction.critical_rank = static_cast<BlockID>(r);
    }
  }
  return prediction;
}

} // namespace gnnpart::cost
