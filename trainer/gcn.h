#pragma once
// Full-batch distributed GCN over one rank's block: Z_l = A_hat H_l W_l + b_l, H_{l+1} =
// ReLU(Z_l) (the last layer's Z are the logits). A layer that narrows (out < in) transforms
// first and exchanges the narrower rows; otherwise it exchanges its input rows and aggregates
// first. Either way each layer's forward pass moves exactly the rows of the send lists. The
// local part of the SpMM (owned columns) runs while the halo rows are in flight.
#include <vector>

#include "block_data.h"
#include "dense.h"
#include "halo_exchange.h"
#include "model.h"
#include "phase_clock.h"

namespace gnnpart::train {

// The SpMM kernels of a block (free functions so that --calibrate times the very same code).
// out = A_hat restricted to owned columns * src (owned rows)
void aggregate_owned(const BlockData& data, const Matrix& src, Matrix& out);
// out += A_hat restricted to halo columns * halo
void aggregate_halo(const BlockData& data, const Matrix& halo, Matrix& out);
// A_hat^T * dz split into owned targets (+=) and halo targets (halo_out, overwritten)
void transpose_owned(const BlockData& data, const Matrix& dz, Matrix& owned_out);
void transpose_halo(const BlockData& data, const Matrix& dz, Matrix& halo_out);
// Dropout of layer `layer`'s input h (rows: global ids `ids`): kept nonzero entries scaled by
// 1 / (1 - rate), the others zeroed; with `scale`, the mask (0 or 1 / (1 - rate)) is kept there.
void apply_dropout(Matrix& h, Matrix* scale, const std::vector<NodeID>& ids, std::uint64_t seed,
                   int epoch, int layer, double rate);

class DistributedGcn {
public:
  DistributedGcn(const BlockData& data, HaloExchange& exchange, const TrainOptions& options)
      : data_(data), exchange_(exchange), options_(options) {}

  // Charges forward and backward to the phases of `clock` (nullptr: untimed).
  void set_clock(PhaseClock* clock) { clock_ = clock; }

  // Returns the logits of the owned rows; keeps what backward needs.
  const Matrix& forward(const std::vector<Layer>& layers, int epoch, bool training);
  // From the gradient of the loss w.r.t. the logits of the owned rows: this rank's share of
  // the parameter gradients, flattened as Adam expects (sum over ranks = full gradient).
  std::vector<double> backward(const std::vector<Layer>& layers, const Matrix& dlogits);

  // Z of each layer (owned rows) of the last forward pass.
  const std::vector<Matrix>& pre_activations() const { return z_; }

private:
  const BlockData& data_;
  HaloExchange& exchange_;
  const TrainOptions& options_;
  PhaseClock* clock_ = nullptr;
  std::vector<Matrix> input_;      // H_l after dropout (owned rows)
  std::vector<Matrix> scale_;      // dropout scale (0 or 1/(1-p)) of H_l, empty when no dropout
  std::vector<Matrix> aggregated_; // aggregate-first layers: A_hat H_l (owned rows)
  std::vector<bool> transform_first_;
  std::vector<Matrix> z_;
  Matrix halo_grad_; // backward's halo gradients, reused by every layer and epoch
};

} // namespace gnnpart::train
