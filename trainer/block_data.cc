#include "block_data.h"

#include <cmath>

#include "layout/layout_io.h"

namespace gnnpart::train {

BlockData load_block(const std::string& dir, BlockID block, const TrainOptions& options) {
  BlockData data;
  data.plan = io::read_layout_plan(dir, block);
  const LayoutPlan& plan = data.plan;
  const NodeID own = plan.num_owned();
  data.split.resize(own);
  data.weight.resize(plan.columns.size());
  data.self_weight.resize(own);
  for (NodeID i = 0; i < own; ++i) {
    const double di = plan.degree[i] + 1.0;
    data.self_weight[i] = 1.0 / di;
    data.split[i] = plan.row_offsets[i + 1];
    for (EdgeID e = plan.row_offsets[i]; e < plan.row_offsets[i + 1]; ++e) {
      const NodeID c = plan.columns[e];
      if (c >= own && data.split[i] == plan.row_offsets[i + 1])
        data.split[i] = e;
      data.weight[e] = 1.0 / std::sqrt(di * (plan.degree[c] + 1.0));
    }
  }

  const FeatureSlice slice = io::read_feature_slice(dir, block);
  if (slice.dim > 0) {
    data.real_features = true;
    data.features = Matrix(own, slice.dim);
    for (NodeID i = 0; i < own; ++i) {
      double sum = 0;
      for (EdgeID e = slice.offsets[i]; e < slice.offsets[i + 1]; ++e)
        sum += slice.values[e];
      const double scale = sum != 0 ? 1.0 / sum : 1.0;
      for (EdgeID e = slice.offsets[i]; e < slice.offsets[i + 1]; ++e) {
        data.features.at(i, slice.cols[e]) = slice.values[e] * scale;
      }
    }
  } else {
    data.features = Matrix(own, options.feature_dim);
    for (NodeID i = 0; i < own; ++i) {
      for (std::uint32_t j = 0; j < options.feature_dim; ++j) {
        data.features.at(i, j) = random_feature(options.seed, plan.owned[i], j);
      }
    }
  }

  if (!plan.labels.empty()) {
    data.real_labels = true;
    data.labels = plan.labels;
    data.train = plan.train_local;
    data.val = plan.val_local;
    data.test = plan.test_local;
  } else {
    data.labels.resize(own);
    for (NodeID i = 0; i < own; ++i) {
      data.labels[i] = plan.owned[i] % 4;
      data.train.push_back(i);
    }
  }
  return data;
}

} // namespace gnnpart::train
