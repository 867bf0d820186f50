#pragma once
// The time of one step of gnnpart-train's fetch mini-batches (trainer/fetch_minibatch.cc,
// DistDGL's scheme), priced by the cost profile (docs/cost_model.md, "Mini-batches: time per
// step"). The work of a step is recounted on the whole graph with the trainer's own draws
// (lib/cost/neighbor_sampling.h), rank by rank: the frontiers and aggregation entries of every
// layer, the neighbours each rank draws for itself and for others, and what every all-to-all
// carries. The step is then priced as the trainer runs it: every all-to-all synchronises all
// ranks, so the step is the sum over its segments (the work between two all-to-alls) of the
// slowest rank's compute plus its exchange, ending with the gradient allreduce and Adam.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"
#include "core/sample_mean.h"
#include "cost/epoch_model.h"
#include "cost/minibatch_rows.h"
#include "cost/profile.h"

namespace gnnpart::cost {

// One MPI_Alltoall of counts and one MPI_Alltoallv of entries over all ranks. Per rank: the
// entries it sends to and receives from the other ranks, and how many ranks that is.
struct AllToAll {
  std::uint32_t entry_bytes = 4;
  std::vector<std::uint64_t> sent, received;
  std::vector<std::uint32_t> sent_to, received_from;
};

// One rank's work in one step, per layer (input layer first).
struct FetchRankWork {
  std::uint64_t seeds = 0;
  std::vector<std::uint64_t> targets;   // |F_{l+1}|
  std::vector<std::uint64_t> inputs;    // |F_l|
  std::vector<std::uint64_t> entries;   // aggregation entries: each target and its sample
  std::vector<std::uint64_t> drawn;     // neighbours drawn for its own targets
  std::vector<std::uint64_t> drawn_for; // neighbours drawn for other ranks' requests
  std::uint64_t rows_served = 0;        // input rows copied out for other ranks
};

struct FetchStepWork {
  std::vector<FetchRankWork> ranks;
  // In the trainer's order: per layer from the top, the sampling requests (ids) and replies
  // (counts and ids); then the fetch: ids, and rows of feature_dim doubles.
  std::vector<AllToAll> exchanges;
};

// The work of step (epoch, batch) as the trainer with options.seed runs it, feature rows of
// `feature_dim` values of `value_bytes`. The graph's adjacency lists must be sorted.
FetchStepWork fetch_step_work(const CsrGraph& graph, const Partition& partition,
                              const std::vector<std::vector<NodeID>>& train,
                              const FetchBatchOptions& options, std::uint64_t epoch,
                              std::uint64_t batch, std::uint32_t feature_dim,
                              std::uint32_t value_bytes = 8);

// A rank's compute in one step, by the trainer's parts (gnnpart-train --json
// "measured_step_parts_cpu_s" has the same order).
enum class StepPart : std::size_t { kSampling, kFetch, kLayers, kAdam };
using StepParts = std::array<double, 4>;

struct StepPrediction {
  double seconds = 0;   // the step: the slowest rank of every segment, the allreduce and Adam
  double sampling = 0;  // of it: segments up to the last sampling reply
  double fetch = 0;     // the fetch's two all-to-alls and the rows' packing
  double compute = 0;   // forward and backward of the sampled layers (the slowest rank)
  double allreduce = 0; // gradients and loss
  std::vector<double> rank_work;     // every rank's own compute (no waits, no transfers)
  std::vector<StepParts> rank_parts; // the same by part
};

// shape.layers must equal the fanouts' count; shape.hidden and shape.classes as the trainer's.
// Throws InvalidParameter for a profile without the sampling rates (profiles calibrated before
// them) or a shape that does not match the work.
StepPrediction predict_fetch_step(const FetchStepWork& work, const GcnShape& shape,
                                  const CostProfile& profile);

// sum += share * step, field by field (the per-rank vectors grow to the step's rank count):
// the mean of several steps' predictions, split and per-rank parts included.
void add_scaled(StepPrediction& sum, const StepPrediction& step, double share);

struct StepTimeEstimate {
  SampleMean seconds; // expected seconds per step, and the standard error over the samples
  std::uint32_t samples = 0;
  StepPrediction mean; // the samples' mean prediction (its seconds equal seconds.mean)
};

// The expectation over `samples` fresh steps (the seed stream of expected_fetched_rows, which
// the trainer never uses). Parallel over samples; independent of the thread count.
StepTimeEstimate expected_fetch_step_seconds(const CsrGraph& graph, const Partition& partition,
                                             std::span<const NodeID> train,
                                             const FetchBatchOptions& options,
                                             const GcnShape& shape, const CostProfile& profile,
                                             std::uint32_t samples);

} // namespace gnnpart::cost
