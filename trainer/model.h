#pragma once
// What the distributed trainer and the single-process reference share: the options, the
// weight initialisation, the dropout mask (a pure function of the global vertex id, so every
// partition drops the same entries) and Adam.
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "dense.h"

namespace gnnpart::train {

struct TrainOptions {
  std::string layout_dir;
  int epochs = 200;
  std::uint32_t feature_dim = 16; // random features when the layout has none
  std::uint32_t hidden = 16;
  int layers = 2;
  double lr = 0.01;
  double weight_decay = 5e-4; // on the first layer's weights, as Kipf & Welling
  double dropout = 0.5;
  std::uint64_t seed = 1;
  bool verify = false;
  std::string json;
  std::uint32_t batch_size = 0; // > 0: mini-batch mode
  std::vector<std::uint32_t> fanouts;
  std::string minibatch_mode = "fetch"; // fetch (DistDGL's) or layerwise (trainer/minibatch.h)
  std::uint32_t predict_samples = 1000; // fresh steps the fetch-mode prediction averages
  std::string dump_batches;             // fetch mode: every step's seeds and fetched ids (JSON)
  std::string cost_profile;             // fetch mode: predict the step time with this profile
  bool predict = false;                 // print the fetch-mode prediction instead of training
  std::string check_batches;            // --predict: recount a --dump-batches file
  bool per_rank = false;                // print per-rank, per-epoch traffic lines
  bool calibrate = false;               // measure a cost profile instead of training
  std::string output;                   // --calibrate: the profile to write
  std::string transport;                // --calibrate: recorded in the profile (free text)
  std::uint32_t calibrate_rows = 20000; // --calibrate: rows of the synthetic kernel block
  std::uint32_t calibrate_repeats = 1;  // --calibrate: whole measurements, medians kept
};

struct Layer {
  Matrix weight; // in x out
  std::vector<double> bias;
};

// Glorot-uniform weights from (seed, layer); zero biases. Identical on every rank.
std::vector<Layer> init_layers(const std::vector<std::uint32_t>& widths, std::uint64_t seed);

// Dropout: keep entry (u, j) of layer `layer`'s input in `epoch`, u a global vertex id.
bool dropout_keep(std::uint64_t seed, int epoch, int layer, std::uint64_t u, std::uint64_t j,
                  double rate);

// Random input feature of global vertex u in [-1, 1), column j.
double random_feature(std::uint64_t seed, std::uint64_t u, std::uint64_t j);

class Adam {
public:
  Adam(const std::vector<Layer>& layers, double lr);
  // grads in the order of flatten(): weights then bias, layer by layer.
  void step(std::vector<Layer>& layers, const std::vector<double>& grads);

private:
  double lr_;
  double beta1_ = 0.9, beta2_ = 0.999, eps_ = 1e-8;
  int t_ = 0;
  std::vector<double> m_, v_;
};

std::size_t parameter_count(const std::vector<Layer>& layers);

// Softmax cross-entropy over the given rows of the logits: returns the summed loss and, when
// dlogits is given (same shape as logits, zero-initialised by the caller), adds
// scale * (softmax - onehot) to the rows. Rows with a negative label are skipped.
double softmax_cross_entropy(const Matrix& logits, const std::vector<std::int64_t>& labels,
                             const std::vector<NodeID>& rows, double scale, Matrix* dlogits);
// Rows whose arg-max equals the label.
std::uint64_t count_correct(const Matrix& logits, const std::vector<std::int64_t>& labels,
                            const std::vector<NodeID>& rows);

} // namespace gnnpart::train
