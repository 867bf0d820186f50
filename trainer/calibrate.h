#pragma once
// gnnpart-train --calibrate -o PROFILE: measures, on the ranks mpirun started, what the epoch
// model of lib/cost needs (docs/cost_model.md): message latency (ping-pong), streaming cost per
// byte (every rank exchanging with every other, as a halo exchange does), how much of a local
// SpMM hides an exchange posted before it, the allreduce, the rates of the trainer's own
// kernels (the same functions gcn.cc calls; the SpMMs on random and on banded blocks, misses and
// cache hits) and of its own HaloExchange (pack, wait, unpack by rows exchanged), all ranks busy
// at once. Rank 0 writes the profile.
#include <mpi.h>

#include "model.h"

namespace gnnpart::train {

int run_calibration(const TrainOptions& options, MPI_Comm comm);

} // namespace gnnpart::train
