#pragma once
// Epoch time of full-batch GCN training as gnnpart-train runs it (docs/cost_model.md): each
// rank's kernels priced by the profile's rates, each halo exchange as alpha * messages + beta *
// bytes (the larger of its send and receive side) less the part its local SpMM hides, and the
// weight-gradient allreduce. Every exchange synchronises a rank with its neighbours, so the
// epoch is the sum over the epoch's segments (the work between two exchanges) of the slowest
// rank's time in that segment; what a rank does not spend itself in a segment is its wait.
#include <cstdint>
#include <vector>

#include "cost/block_traffic.h"
#include "cost/phases.h"
#include "cost/profile.h"

namespace gnnpart::cost {

struct GcnShape {
  int layers = 2;
  std::uint32_t feature_dim = 16;
  std::uint32_t hidden = 16;
  std::uint32_t classes = 4;
  double dropout = 0.5;          // gnnpart-train's default
  double feature_density = 1.0;  // nonzero share of the input features (random ones: 1)
  std::uint32_t value_bytes = 8; // the trainer exchanges doubles
};

struct RankTime {
  double compute = 0;      // kernels, including the local SpMM that hides communication
  double send = 0;         // alpha * messages + beta * bytes sent, over all exchanges
  double receive = 0;      // the same for what it receives
  double exposed_comm = 0; // communication time not hidden by the local SpMM
  double wait = 0;         // idle while slower neighbours finish a segment
  double total = 0;        // compute + exposed_comm + wait + allreduce = the epoch
  // The same epoch by the trainer's phases (gnnpart-train --json "phases_s"): compute in its
  // kernels' phases, exposed communication and waits in kWait, the allreduce in kAllreduce.
  PhaseSeconds phases{};
};

struct EpochPrediction {
  double epoch_seconds = 0;
  double allreduce_seconds = 0;
  BlockID critical_rank = 0; // the rank that waits least
  std::vector<RankTime> ranks;
  std::vector<double> segment_seconds; // per exchange, forward then backward, then the rest
};

// Throws InvalidParameter for a shape with layers < 1 or a zero width.
EpochPrediction predict_epoch(const std::vector<BlockTraffic>& blocks, const GcnShape& shape,
                              const CostProfile& profile);

} // namespace gnnpart::cost
