#pragma once
// Warnings on rank 0 when a layout lacks what a meaningful training run needs: labels, the
// validation/test masks, real features. Without them the trainer still runs (traffic and
// --verify runs need nothing more), but its accuracies mean nothing, and it says so.
#include <mpi.h>

#include "block_data.h"
#include "model.h"

namespace gnnpart::train {

void warn_about_layout_gaps(const BlockData& data, const TrainOptions& options, MPI_Comm comm);

} // namespace gnnpart::train
