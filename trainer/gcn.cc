#include "gcn.h"

namespace gnnpart::train {

using cost::Phase;

void aggregate_owned(const BlockData& data, const Matrix& src, Matrix& out) {
  const LayoutPlan& plan = data.plan;
  const std::size_t w = src.cols;
  out = Matrix(plan.num_owned(), w);
  for (NodeID i = 0; i < plan.num_owned(); ++i) {
    double* o = out.row(i);
    const double* self = src.row(i);
    for (std::size_t j = 0; j < w; ++j)
      o[j] = data.self_weight[i] * self[j];
    for (EdgeID e = plan.row_offsets[i]; e < data.split[i]; ++e)
      add_scaled(o, data.weight[e], src.row(plan.columns[e]), w);
  }
}

void aggregate_halo(const BlockData& data, const Matrix& halo, Matrix& out) {
  const LayoutPlan& plan = data.plan;
  const NodeID own = plan.num_owned();
  const std::size_t w = out.cols;
  for (NodeID i = 0; i < own; ++i) {
    double* o = out.row(i);
    for (EdgeID e = data.split[i]; e < plan.row_offsets[i + 1]; ++e)
      add_scaled(o, data.weight[e], halo.row(plan.columns[e] - own), w);
  }
}

void transpose_owned(const BlockData& data, const Matrix& dz, Matrix& owned_out) {
  const LayoutPlan& plan = data.plan;
  const std::size_t w = dz.cols;
  for (NodeID i = 0; i < plan.num_owned(); ++i) {
    const double* g = dz.row(i);
    add_scaled(owned_out.row(i), data.self_weight[i], g, w);
    for (EdgeID e = plan.row_offsets[i]; e < data.split[i]; ++e)
      add_scaled(owned_out.row(plan.columns[e]), data.weight[e], g, w);
  }
}

void transpose_halo(const BlockData& data, const Matrix& dz, Matrix& halo_out) {
  const LayoutPlan& plan = data.plan;
  const NodeID own = plan.num_owned();
  const std::size_t w = dz.cols;
  // Storage kept across calls (a steady run neither allocates nor faults pages in here).
  halo_out.rows = plan.num_halo();
  halo_out.cols = w;
  halo_out.data.assign(halo_out.rows * w, 0.0);
  for (NodeID i = 0; i < own; ++i) {
    const double* g = dz.row(i);
    for (EdgeID e = data.split[i]; e < plan.row_offsets[i + 1]; ++e)
      add_scaled(halo_out.row(plan.columns[e] - own), data.weight[e], g, w);
  }
}

void apply_dropout(Matrix& h, Matrix* scale, const std::vector<NodeID>& ids, std::uint64_t seed,
                   int epoch, int layer, double rate) {
  const double keep_scale = 1.0 / (1.0 - rate);
  if (scale != nullptr)
    *scale = Matrix(h.rows, h.cols);
  for (NodeID i = 0; i < h.rows; ++i) {
    for (std::size_t j = 0; j < h.cols; ++j) {
      if (h.at(i, j) == 0.0) // zero entries stay zero whatever the mask
        continue;
      const bool keep = dropout_keep(seed, epoch, layer, ids[i], j, rate);
      if (scale != nullptr)
        scale->at(i, j) = keep ? keep_scale : 0.0;
      h.at(i, j) *= keep ? keep_scale : 0.0;
    }
  }
}

const Matrix& DistributedGcn::forward(const std::vector<Layer>& layers, int epoch, bool training) {
  const std::size_t num_layers = layers.size();
  input_.assign(num_layers, Matrix());
  scale_.assign(num_layers, Matrix());
  aggregated_.assign(num_layers, Matrix());
  transform_first_.assign(num_layers, false);
  z_.assign(num_layers, Matrix());
  const LayoutPlan& plan = data_.plan;
  const bool drop = training && options_.dropout > 0;

  for (std::size_t l = 0; l < num_layers; ++l) {
    enter(clock_, Phase::kCopy);
    Matrix h;
    if (l == 0) {
      h = data_.features;
    } else {
      h = z_[l - 1];
      for (double& x : h.data)
        x = x > 0 ? x : 0;
    }
    if (drop) {
      enter(clock_, Phase::kDropout);
      // Layer 0's mask is not needed backwards.
      apply_dropout(h, l > 0 ? &scale_[l] : nullptr, plan.owned, options_.seed, epoch,
                    static_cast<int>(l), options_.dropout);
    }
    input_[l] = std::move(h);
    const Layer& layer = layers[l];
    const bool transform_first = layer.weight.cols < layer.weight.rows;
    transform_first_[l] = transform_first;
    Matrix& z = z_[l];
    if (transform_first) {
      enter(clock_, Phase::kGemm);
      const Matrix t = multiply(input_[l], layer.weight);
      exchange_.begin_forward(t);
      enter(clock_, Phase::kSpmmLocal);
      aggregate_owned(data_, t, z);
      const Matrix& halo = exchange_.end_forward();
      enter(clock_, Phase::kSpmmHalo);
      aggregate_halo(data_, halo, z);
    } else {
      exchange_.begin_forward(input_[l]);
      enter(clock_, Phase::kSpmmLocal);
      Matrix s;
      aggregate_owned(data_, input_[l], s);
      const Matrix& halo = exchange_.end_forward();
      enter(clock_, Phase::kSpmmHalo);
      aggregate_halo(data_, halo, s);
      enter(clock_, Phase::kGemm);
      z = multiply(s, layer.weight);
      aggregated_[l] = std::move(s);
    }
    enter(clock_, Phase::kBias);
    for (NodeID i = 0; i < z.rows; ++i) {
      double* row = z.row(i);
      for (std::size_t j = 0; j < z.cols; ++j)
        row[j] += layer.bias[j];
    }
  }
  return z_.back();
}

std::vector<double> DistributedGcn::backward(const std::vector<Layer>& layers,
                                             const Matrix& dlogits) {
  const std::size_t num_layers = layers.size();
  std::vector<Matrix> dweight(num_layers);
  std::vector<std::vector<double>> dbias(num_layers);
  enter(clock_, Phase::kBias);
  Matrix dz = dlogits;
  for (std::size_t l = num_layers; l-- > 0;) {
    const Layer& layer = layers[l];
    enter(clock_, Phase::kBias);
    dbias[l].assign(layer.bias.size(), 0.0);
    for (NodeID i = 0; i < dz.rows; ++i) {
      for (std::size_t j = 0; j < dz.cols; ++j)
        dbias[l][j] += dz.at(i, j);
    }
    // Gradient w.r.t. this layer's (dropped-out) input rows, needed below layer 0 only.
    Matrix dinput;
    Matrix& halo_grad = halo_grad_;
    if (transform_first_[l]) {
      // Z = A_hat T + b, T = H W: dT = A_hat^T dZ (transposed exchange), dW = H^T dT.
      enter(clock_, Phase::kSpmmHalo);
      Matrix dt(dz.rows, dz.cols);
      transpose_halo(data_, dz, halo_grad);
      exchange_.begin_backward(halo_grad);
      enter(clock_, Phase::kSpmmLocal);
      transpose_owned(data_, dz, dt);
      exchange_.end_backward(dt);
      enter(clock_, Phase::kGemmBackward);
      dweight[l] = multiply_at_b(input_[l], dt);
      if (l > 0)
        dinput = multiply_a_bt(dt, layer.weight);
    } else {
      // Z = S W + b, S = A_hat H: dW = S^T dZ, dS = dZ W^T, dH = A_hat^T dS.
      enter(clock_, Phase::kGemmBackward);
      dweight[l] = multiply_at_b(aggregated_[l], dz);
      if (l > 0) {
        const Matrix ds = multiply_a_bt(dz, layer.weight);
        enter(clock_, Phase::kSpmmHalo);
        dinput = Matrix(ds.rows, ds.cols);
        transpose_halo(data_, ds, halo_grad);
        exchange_.begin_backward(halo_grad);
        enter(clock_, Phase::kSpmmLocal);
        transpose_owned(data_, ds, dinput);
        exchange_.end_backward(dinput);
      }
    }
    if (l == 0)
      break;
    // Through dropout and the ReLU of the layer below.
    enter(clock_, Phase::kMask);
    const Matrix& z_below = z_[l - 1];
    dz = std::move(dinput);
    for (std::size_t e = 0; e < dz.data.size(); ++e) {
      if (!scale_[l].data.empty())
        dz.data[e] *= scale_[l].data[e];
      if (z_below.data[e] <= 0)
        dz.data[e] = 0;
    }
  }
  enter(clock_, Phase::kAllreduce);
  std::vector<double> grads;
  grads.reserve(parameter_count(layers));
  for (std::size_t l = 0; l < num_layers; ++l) {
    grads.insert(grads.end(), dweight[l].data.begin(), dweight[l].data.end());
    grads.insert(grads.end(), dbias[l].begin(), dbias[l].end());
  }
  return grads;
}

} // namespace gnnpart::train
