#pragma once
// The arithmetic of a sampled GCN layer, shared by both mini-batch modes: output t is the mean
// of its input rows inputs[offsets[t] .. offsets[t + 1]) (its own row first, then its sampled
// neighbours), times W, plus b; ReLU between layers.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "dense.h"
#include "model.h"

namespace gnnpart::train {

struct SampledEdges {
  std::vector<std::size_t> offsets{0}; // outputs + 1
  std::vector<std::size_t> inputs;     // row positions in the layer's input matrix
  std::size_t outputs() const { return offsets.size() - 1; }
};

// The mean aggregation: one row per output.
Matrix mean_aggregate(const SampledEdges& edges, const Matrix& x);
// Its transpose: adds the gradient of every output's mean to the rows of dx it read.
void mean_aggregate_backward(const SampledEdges& edges, const Matrix& dagg, Matrix& dx);
// agg * W + b.
Matrix affine(const Matrix& agg, const Layer& layer);
// Column sums (the bias gradient of dz).
std::vector<double> column_sums(const Matrix& m);
// max(z, 0), and the gradient dx masked where z <= 0.
Matrix relu(const Matrix& z);
Matrix relu_backward(const Matrix& z, const Matrix& dx);

} // namespace gnnpart::train

namespace gnnpart::train {

struct SampledPass {
  std::vector<double> grads; // in Adam's order: per layer weights, then bias
  double loss = 0;           // summed over the labelled rows of the top level (unscaled)
};

// Forward and backward of a sampled computation graph: x0 holds the rows of F_0, edges[l]
// maps the input rows of layer l to those of F_{l+1}; softmax cross-entropy over the rows of
// F_L with `labels` (-1: none), gradients scaled by `scale`. Optional hooks for a mode that
// exchanges rows between layers: `gather(l, x)` may append rows to layer l's input before the
// aggregation reads it, `scatter(l, dx)` gets the gradient of all those rows and must leave
// the ones of F_l (the rows of layer l - 1's output).
using LayerHook = std::function<void(std::size_t layer, Matrix& rows)>;
SampledPass sampled_forward_backward(const std::vector<SampledEdges>& edges, const Matrix& x0,
                                     const std::vector<std::int64_t>& labels,
                                     const std::vector<Layer>& layers, double scale,
                                     const LayerHook& gather = {}, const LayerHook& scatter = {});

} // namespace gnnpart::train
