#pragma once
// Row-major dense matrices of doubles and the few products a GCN layer needs. Zero entries of
// the left operand are skipped, so sparse bag-of-words features cost little.
#include <cstddef>
#include <vector>

namespace gnnpart::train {

struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;

  Matrix() = default;
  Matrix(std::size_t r, std::size_t c) : rows(r), cols(c), data(r * c, 0.0) {}
  double* row(std::size_t i) { return data.data() + i * cols; }
  const double* row(std::size_t i) const { return data.data() + i * cols; }
  double& at(std::size_t i, std::size_t j) { return data[i * cols + j]; }
  double at(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
  void fill(double value) { data.assign(rows * cols, value); }
};

// out[0, n) += a * in[0, n): the row update every product and aggregation here is made of.
inline void add_scaled(double* out, double a, const double* in, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j)
    out[j] += a * in[j];
}

// C = A * B
Matrix multiply(const Matrix& a, const Matrix& b);
// C = A^T * B
Matrix multiply_at_b(const Matrix& a, const Matrix& b);
// C = A * B^T
Matrix multiply_a_bt(const Matrix& a, const Matrix& b);

} // namespace gnnpart::train
