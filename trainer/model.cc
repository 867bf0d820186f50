#include "model.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"

namespace gnnpart::train {

std::vector<Layer> init_layers(const std::vector<std::uint32_t>& widths, std::uint64_t seed) {
  std::vector<Layer> layers;
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    Layer layer;
    layer.weight = Matrix(widths[l], widths[l + 1]);
    const double range = std::sqrt(6.0 / (widths[l] + widths[l + 1]));
    Rng rng(derive_seed(seed, 1, l));
    for (double& w : layer.weight.data)
      w = (2.0 * rng.uniform() - 1.0) * range;
    layer.bias.assign(widths[l + 1], 0.0);
    layers.push_back(std::move(layer));
  }
  return layers;
}

bool dropout_keep(std::uint64_t seed, int epoch, int layer, std::uint64_t u, std::uint64_t j,
                  double rate) {
  if (rate <= 0)
    return true;
  const std::uint64_t h =
      derive_seed(seed ^ 0x64726f70ULL, (static_cast<std::uint64_t>(epoch) << 8) | layer, u, j);
  return static_cast<double>(h >> 11) * 0x1.0p-53 >= rate;
}

double random_feature(std::uint64_t seed, std::uint64_t u, std::uint64_t j) {
  const std::uint64_t h = derive_seed(seed ^ 0x66656174ULL, u, j);
  return 2.0 * (static_cast<double>(h >> 11) * 0x1.0p-53) - 1.0;
}

std::size_t parameter_count(const std::vector<Layer>& layers) {
  std::size_t count = 0;
  for (const Layer& l : layers)
    count += l.weight.data.size() + l.bias.size();
  return count;
}

double softmax_cross_entropy(const Matrix& logits, const std::vector<std::int64_t>& labels,
                             const std::vector<NodeID>& rows, double scale, Matrix* dlogits) {
  double loss = 0;
  std::vector<double> p(logits.cols);
  for (NodeID i : rows) {
    if (labels[i] < 0)
      continue;
    const double* z = logits.row(i);
    double max = z[0];
    for (std::size_t j = 1; j < logits.cols; ++j)
      max = std::max(max, z[j]);
    double sum = 0;
    for (std::size_t j = 0; j < logits.cols; ++j)
      sum += (p[j] = std::exp(z[j] - max));
    const auto y = static_cast<std::size_t>(labels[i]);
    loss += -(z[y] - max - std::log(sum));
    if (dlogits != nullptr) {
      double* g = dlogits->row(i);
      for (std::size_t j = 0; j < logits.cols; ++j) {
        g[j] += scale * (p[j] / sum - (j == y ? 1.0 : 0.0));
      }
    }
  }
  return loss;
}

std::uint64_t count_correct(const Matrix& logits, const std::vector<std::int64_t>& labels,
                            const std::vector<NodeID>& rows) {
  std::uint64_t correct = 0;
  for (NodeID i : rows) {
    if (labels[i] < 0)
      continue;
    const double* z = logits.row(i);
    std::size_t best = 0;
    for (std::size_t j = 1; j < logits.cols; ++j) {
      if (z[j] > z[best])
        best = j;
    }
    correct += static_cast<std::int64_t>(best) == labels[i];
  }
  return correct;
}

Adam::Adam(const std::vector<Layer>& layers, double lr)
    : lr_(lr), m_(parameter_count(layers), 0.0), v_(parameter_count(layers), 0.0) {}

void Adam::step(std::vector<Layer>& layers, const std::vector<double>& grads) {
  ++t_;
  const double c1 = 1.0 - std::pow(beta1_, t_);
  const double c2 = 1.0 - std::pow(beta2_, t_);
  std::size_t i = 0;
  auto update = [&](double& p) {
    const double g = grads[i];
    m_[i] = beta1_ * m_[i] + (1 - beta1_) * g;
    v_[i] = beta2_ * v_[i] + (1 - beta2_) * g * g;
    p -= lr_ * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + eps_);
    ++i;
  };
  for (Layer& layer : layers) {
    for (double& w : layer.weight.data)
      update(w);
    for (double& b : layer.bias)
      update(b);
  }
}

} // namespace gnnpart::train
