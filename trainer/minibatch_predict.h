#pragma once
// The single-process side of the fetch mini-batch mode: the whole graph, partition and
// training set reassembled from a layout's blocks, the rows lib/cost predicts for it, and the
// check of a --dump-batches file against an independent recount.
//   gnnpart-train LAYOUT_DIR --predict --batch-size B --fanouts f0,f1 [--predict-samples S]
//       [--check-batches DUMP.json] [--json FILE]
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/graph.h"
#include "core/partition.h"
#include "cost/minibatch_rows.h"
#include "model.h"

namespace gnnpart::train {

struct FetchProblem {
  CsrGraph graph; // sorted adjacency lists, global ids
  Partition partition;
  std::vector<NodeID> train; // global ids, sorted (every vertex when the layout has no labels)
};

FetchProblem load_fetch_problem(const std::string& dir, BlockID k);
cost::FetchBatchOptions fetch_batch_options(const TrainOptions& options);

// --predict: rank 0 prints (and writes with --json) the expected rows per step over
// --predict-samples fresh steps and, with --check-batches, recounts every dumped step; returns
// 2 when a recount differs from the dump, else 0. Other ranks only wait.
int run_predict(const TrainOptions& options, MPI_Comm comm);

} // namespace gnnpart::train
