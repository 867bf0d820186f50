#pragma once
// The single-process check of --verify: the whole graph reassembled from every block of the
// layout, and one GCN epoch computed on it in the plainest way (aggregate first, global
// arrays, degrees recounted from the adjacency), independent of the distributed code paths.
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "dense.h"
#include "model.h"

namespace gnnpart::train {

struct GlobalProblem {
  NodeID n = 0;
  std::vector<std::vector<NodeID>> adjacency;
  Matrix features;                  // n x F
  std::vector<std::int64_t> labels; // n
  std::vector<NodeID> train;        // global ids
};

GlobalProblem assemble_global_problem(const std::string& dir, BlockID k,
                                      const TrainOptions& options);

struct ReferenceEpoch {
  std::vector<Matrix> z;     // per layer, n rows
  std::vector<double> grads; // flattened like Adam's
  double loss = 0;           // mean over the training vertices
};

ReferenceEpoch reference_epoch(const GlobalProblem& problem, const std::vector<Layer>& layers,
                               const TrainOptions& options, int epoch);

} // namespace gnnpart::train
