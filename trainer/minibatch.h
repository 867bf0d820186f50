#pragma once
// The two mini-batch modes of gnnpart-train (--batch-size B --fanouts f0,f1,..., input layer
// first), behind one interface the training loop (minibatch_run.cc) drives:
//   fetch (default): DistDGL's scheme (fetch_minibatch.cc). Every rank draws B seeds from its
//     own training vertices, samples their computation graph (remote frontier vertices are
//     sampled by their owners on request), fetches the remote input-feature rows once, computes
//     all layers locally; gradients are allreduced.
//   layerwise: the per-layer exchange (minibatch.cc). Batches are cut from one shuffle of all
//     training vertices; each rank samples for the seeds it owns and exchanges the sampled
//     remote rows of every layer (and their gradients).
#include <cstdint>
#include <memory>
#include <vector>

#include <mpi.h>

#include "block_data.h"
#include "cost/minibatch_time.h"
#include "halo_exchange.h"
#include "model.h"

namespace gnnpart::train {

// What one rank did in one step.
struct BatchStep {
  std::vector<double> grads;     // this rank's share of the gradients, in Adam's order
  double loss = 0;               // this rank's summed loss over its seeds (unscaled)
  std::uint64_t seeds_total = 0; // seeds of the step over all ranks (the gradients' 1 / scale)
  std::uint64_t rows = 0;        // fetch: input rows received; layerwise: forward rows sent
  CommStats stats;
  std::vector<NodeID> seeds, fetched; // fetch mode: global ids, for --dump-batches
  // fetch mode: this thread's CPU seconds in sampling, fetching and the layers (outside MPI
  // calls; cost::StepPart's order, Adam's filled in by the training loop).
  cost::StepParts cpu{};
};

// CPU seconds of the calling thread (CPU time, not wall time: what a rank computes, whoever
// else shares its core).
double thread_cpu_seconds();

class MinibatchMode {
public:
  virtual ~MinibatchMode() = default;
  virtual std::uint64_t batches_per_epoch() const = 0;
  virtual BatchStep step(int epoch, std::uint64_t batch, const std::vector<Layer>& layers) = 0;
};

std::unique_ptr<MinibatchMode> make_layerwise_mode(const BlockData& data,
                                                   const TrainOptions& options, MPI_Comm comm);
std::unique_ptr<MinibatchMode> make_fetch_mode(const BlockData& data, const TrainOptions& options,
                                               MPI_Comm comm);

} // namespace gnnpart::train
