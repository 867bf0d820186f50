#include "sampled_layers.h"

#include <algorithm>

namespace gnnpart::train {

Matrix mean_aggregate(const SampledEdges& edges, const Matrix& x) {
  Matrix agg(edges.outputs(), x.cols);
  for (std::size_t t = 0; t < edges.outputs(); ++t) {
    const double w = 1.0 / static_cast<double>(edges.offsets[t + 1] - edges.offsets[t]);
    double* out = agg.row(t);
    for (std::size_t e = edges.offsets[t]; e < edges.offsets[t + 1]; ++e) {
      const double* in = x.row(edges.inputs[e]);
      for (std::size_t j = 0; j < x.cols; ++j)
        out[j] += w * in[j];
    }
  }
  return agg;
}

void mean_aggregate_backward(const SampledEdges& edges, const Matrix& dagg, Matrix& dx) {
  for (std::size_t t = 0; t < edges.outputs(); ++t) {
    const double w = 1.0 / static_cast<double>(edges.offsets[t + 1] - edges.offsets[t]);
    const double* in = dagg.row(t);
    for (std::size_t e = edges.offsets[t]; e < edges.offsets[t + 1]; ++e) {
      double* out = dx.row(edges.inputs[e]);
      for (std::size_t j = 0; j < dx.cols; ++j)
        out[j] += w * in[j];
    }
  }
}

Matrix affine(const Matrix& agg, const Layer& layer) {
  Matrix z = multiply(agg, layer.weight);
  for (std::size_t t = 0; t < z.rows; ++t) {
    for (std::size_t j = 0; j < z.cols; ++j)
      z.at(t, j) += layer.bias[j];
  }
  return z;
}

std::vector<double> column_sums(const Matrix& m) {
  std::vector<double> sums(m.cols, 0.0);
  for (std::size_t t = 0; t < m.rows; ++t) {
    for (std::size_t j = 0; j < m.cols; ++j)
      sums[j] += m.at(t, j);
  }
  return sums;
}

Matrix relu(const Matrix& z) {
  Matrix x = z;
  for (double& v : x.data)
    v = std::max(v, 0.0);
  return x;
}

Matrix relu_backward(const Matrix& z, const Matrix& dx) {
  Matrix dz(z.rows, z.cols);
  for (std::size_t i = 0; i < dz.data.size(); ++i)
    dz.data[i] = z.data[i] > 0 ? dx.data[i] : 0.0;
  return dz;
}

} // namespace gnnpart::train
