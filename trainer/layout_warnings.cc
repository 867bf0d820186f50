#include "layout_warnings.h"

#include <cstdio>

#include "run.h"

namespace gnnpart::train {

void warn_about_layout_gaps(const BlockData& data, const TrainOptions& options, MPI_Comm comm) {
  const std::vector<std::uint64_t> totals =
      allreduce_sum({data.real_labels ? 1u : 0u, data.real_features ? 1u : 0u, data.val.size(),
                     data.test.size()},
                    comm);
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != 0)
    return;
  const char* dir = options.layout_dir.c_str();
  const char* how = "write the layout with `gnnpart layout GRAPH PARTITION -o DIR --labels FILE "
                    "--train FILE --val FILE --test FILE --features FILE` (README, docs/layout.md)";
  if (totals[0] < static_cast<std::uint64_t>(size)) {
    std::fprintf(stderr,
                 "gnnpart-train: warning: %s has no labels: training on a synthetic task (label = "
                 "vertex id mod 4, every vertex a training vertex), so the accuracies below mean "
                 "nothing; %s\n",
                 dir, how);
  } else if (totals[2] == 0 || totals[3] == 0) {
    std::fprintf(stderr,
                 "gnnpart-train: warning: %s has no %s vertices: their accuracy prints as 0; %s\n",
                 dir, totals[2] == 0 && totals[3] == 0 ? "validation or test"
                      : totals[2] == 0                ? "validation"
                                                      : "test",
                 how);
  }
  if (totals[1] < static_cast<std::uint64_t>(size))
    std::fprintf(stderr,
                 "gnnpart-train: warning: %s has no features: using random ones of dimension %u "
                 "(--feature-dim)\n",
                 dir, options.feature_dim);
  std::fflush(stderr);
}

} // namespace gnnpart::train
