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

namespace gnnpart::train {

SampledPass sampled_forward_backward(const std::vector<SampledEdges>& edges, const Matrix& x0,
                                     const std::vector<std::int64_t>& labels,
                                     const std::vector<Layer>& layers, double scale,
                                     const LayerHook& gather, const LayerHook& scatter) {
  const std::size_t num_layers = layers.size();
  std::vector<Matrix> agg(num_layers), z(num_layers);
  std::vector<std::size_t> input_rows(num_layers);
  for (std::size_t l = 0; l < num_layers; ++l) {
    Matrix x = l == 0 ? x0 : relu(z[l - 1]);
    if (gather)
      gather(l, x);
    input_rows[l] = x.rows;
    agg[l] = mean_aggregate(edges[l], x);
    z[l] = affine(agg[l], layers[l]);
  }
  std::vector<NodeID> rows(labels.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    rows[i] = static_cast<NodeID>(i);
  SampledPass out;
  Matrix dz(z.back().rows, z.back().cols);
  out.loss = softmax_cross_entropy(z.back(), labels, rows, scale, &dz);
  std::vector<Matrix> dw(num_layers);
  std::vector<std::vector<double>> db(num_layers);
  for (std::size_t l = num_layers; l-- > 0;) {
    dw[l] = multiply_at_b(agg[l], dz);
    db[l] = column_sums(dz);
    if (l == 0)
      break;
    const Matrix dagg = multiply_a_bt(dz, layers[l].weight);
    Matrix dx(input_rows[l], dagg.cols);
    mean_aggregate_backward(edges[l], dagg, dx);
    if (scatter)
      scatter(l, dx);
    dz = relu_backward(z[l - 1], dx);
  }
  for (std::size_t l = 0; l < num_layers; ++l) {
    out.grads.insert(out.grads.end(), dw[l].data.begin(), dw[l].data.end());
    out.grads.insert(out.grads.end(), db[l].begin(), db[l].end());
  }
  return out;
}

} // namespace gnnpart::train
