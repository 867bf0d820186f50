#pragma once
// --verify in fetch mode: one step computed in one process on the whole graph (the layout's
// blocks reassembled, trainer/reference.h): every rank's seeds and computation graph sampled
// from the global adjacency, its input rows read from the global feature matrix, gradients
// summed over ranks. Compared with the distributed step, it checks the distributed sampler
// (sampling requests to owners) and the fetched rows' placement.
#include <cstdint>
#include <vector>

#include "core/partition.h"
#include "model.h"
#include "reference.h"
#include "sampled_layers.h"

namespace gnnpart::train {

SampledPass fetch_reference_step(const GlobalProblem& problem, const Partition& partition,
                                 const std::vector<Layer>& layers, const TrainOptions& options,
                                 int epoch, std::uint64_t batch);

} // namespace gnnpart::train
