#include "reference.h"

#include <algorithm>
#include <cmath>

#include "block_data.h"

namespace gnnpart::train {

GlobalProblem assemble_global_problem(const std::string& dir, BlockID k,
                                      const TrainOptions& options) {
  GlobalProblem problem;
  for (BlockID p = 0; p < k; ++p) {
    const BlockData block = load_block(dir, p, options);
    const LayoutPlan& plan = block.plan;
    if (p == 0) {
      problem.n = plan.n;
      problem.adjacency.resize(plan.n);
      problem.features = Matrix(plan.n, block.features.cols);
      problem.labels.assign(plan.n, -1);
    }
    auto global = [&](NodeID local) {
      return local < plan.num_owned() ? plan.owned[local] : plan.halo[local - plan.num_owned()];
    };
    for (NodeID i = 0; i < plan.num_owned(); ++i) {
      const NodeID u = plan.owned[i];
      for (EdgeID e = plan.row_offsets[i]; e < plan.row_offsets[i + 1]; ++e) {
        problem.adjacency[u].push_back(global(plan.columns[e]));
      }
      std::copy(block.features.row(i), block.features.row(i) + block.features.cols,
                problem.features.row(u));
      problem.labels[u] = block.labels[i];
    }
    for (NodeID i : block.train)
      problem.train.push_back(plan.owned[i]);
  }
  std::sort(problem.train.begin(), problem.train.end());
  return problem;
}

namespace {

// out = A_hat x with A_hat = D^-1/2 (A + I) D^-1/2, d = |N(u)| + 1.
Matrix propagate(const GlobalProblem& g, const Matrix& x) {
  Matrix out(x.rows, x.cols);
  for (NodeID u = 0; u < g.n; ++u) {
    const double du = g.adjacency[u].size() + 1.0;
    for (std::size_t j = 0; j < x.cols; ++j)
      out.at(u, j) += x.at(u, j) / du;
    for (NodeID v : g.adjacency[u]) {
      const double a = 1.0 / std::sqrt(du * (g.adjacency[v].size() + 1.0));
      for (std::size_t j = 0; j < x.cols; ++j)
        out.at(u, j) += a * x.at(v, j);
    }
  }
  return out;
}

} // namespace

ReferenceEpoch reference_epoch(const GlobalProblem& g, const std::vector<Layer>& layers,
                               const TrainOptions& options, int epoch) {
  const std::size_t num_layers = layers.size();
  ReferenceEpoch result;
  std::vector<Matrix> masks(num_layers), s(num_layers);
  Matrix h = g.features;
  for (std::size_t l = 0; l < num_layers; ++l) {
    if (l > 0) {
      h = result.z[l - 1];
      for (double& x : h.data)
        x = std::max(x, 0.0);
    }
    masks[l] = Matrix(h.rows, h.cols);
    for (NodeID u = 0; u < g.n; ++u) {
      for (std::size_t j = 0; j < h.cols; ++j) {
        const bool keep =
            dropout_keep(options.seed, epoch, static_cast<int>(l), u, j, options.dropout);
        masks[l].at(u, j) = options.dropout <= 0 ? 1.0 : keep ? 1.0 / (1.0 - options.dropout) : 0;
        h.at(u, j) *= masks[l].at(u, j);
      }
    }
    s[l] = propagate(g, h);
    Matrix z = multiply(s[l], layers[l].weight);
    for (NodeID u = 0; u < g.n; ++u) {
      for (std::size_t j = 0; j < z.cols; ++j)
        z.at(u, j) += layers[l].bias[j];
    }
    result.z.push_back(std::move(z));
  }
  Matrix dz(g.n, result.z.back().cols);
  const double count = static_cast<double>(g.train.size());
  result.loss = softmax_cross_entropy(result.z.back(), g.labels, g.train, 1.0 / count, &dz) / count;

  std::vector<std::vector<double>> dw(num_layers), db(num_layers);
  for (std::size_t l = num_layers; l-- > 0;) {
    const Matrix dweight = multiply_at_b(s[l], dz);
    dw[l] = dweight.data;
    db[l].assign(dz.cols, 0.0);
    for (NodeID u = 0; u < g.n; ++u) {
      for (std::size_t j = 0; j < dz.cols; ++j)
        db[l][j] += dz.at(u, j);
    }
    if (l == 0)
      break;
    Matrix dh = propagate(g, multiply_a_bt(dz, layers[l].weight)); // A_hat is symmetric
    for (std::size_t e = 0; e < dh.data.size(); ++e) {
      dh.data[e] *= masks[l].data[e];
      if (result.z[l - 1].data[e] <= 0)
        dh.data[e] = 0;
    }
    dz = std::move(dh);
  }
  for (std::size_t l = 0; l < num_layers; ++l) {
    result.grads.insert(result.grads.end(), dw[l].begin(), dw[l].end());
    result.grads.insert(result.grads.end(), db[l].begin(), db[l].end());
  }
  return result;
}

} // namespace gnnpart::train
