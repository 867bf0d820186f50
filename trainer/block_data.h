#pragma once
// One rank's share of the graph, loaded from a layout directory: the plan, the GCN
// normalisation D^-1/2 (A + I) D^-1/2 of its rows (from the global degrees stored in the
// layout), input features, labels and the train/val/test subsets.
#include <cstdint>
#include <string>
#include <vector>

#include "core/layout.h"
#include "dense.h"
#include "model.h"

namespace gnnpart::train {

struct BlockData {
  LayoutPlan plan;
  std::vector<EdgeID> split;       // per owned row: first CSR entry with a halo column
  std::vector<double> weight;      // per CSR entry: 1 / sqrt(d_i d_c), d = degree + 1
  std::vector<double> self_weight; // per owned row: 1 / d_i
  Matrix features;                 // owned rows x feature width
  bool real_features = false;
  bool real_labels = false;             // false: the synthetic task below
  std::vector<std::int64_t> labels;     // per owned row, -1 = unlabeled
  std::vector<NodeID> train, val, test; // owned local ids
};

// Real features (row-normalised) when the layout has them, else random ones of
// options.feature_dim columns. Without labels: label = global id mod 4 and every owned vertex
// trains (a synthetic task, enough for traffic and verification runs).
BlockData load_block(const std::string& dir, BlockID block, const TrainOptions& options);

} // namespace gnnpart::train
