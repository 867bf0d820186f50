#include "dense.h"

#include <stdexcept>

namespace gnnpart::train {

Matrix multiply(const Matrix& a, const Matrix& b) {
  if (a.cols != b.rows)
    throw std::logic_error("multiply: shape mismatch");
  Matrix c(a.rows, b.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    double* out = c.row(i);
    for (std::size_t k = 0; k < a.cols; ++k) {
      const double x = a.at(i, k);
      if (x == 0.0)
        continue;
      add_scaled(out, x, b.row(k), b.cols);
    }
  }
  return c;
}

Matrix multiply_at_b(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows)
    throw std::logic_error("multiply_at_b: shape mismatch");
  Matrix c(a.cols, b.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double* in = b.row(i);
    for (std::size_t k = 0; k < a.cols; ++k) {
      const double x = a.at(i, k);
      if (x == 0.0)
        continue;
      add_scaled(c.row(k), x, in, b.cols);
    }
  }
  return c;
}

Matrix multiply_a_bt(const Matrix& a, const Matrix& b) {
  if (a.cols != b.cols)
    throw std::logic_error("multiply_a_bt: shape mismatch");
  Matrix c(a.rows, b.rows);
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double* x = a.row(i);
    for (std::size_t j = 0; j < b.rows; ++j) {
      const double* y = b.row(j);
      double sum = 0;
      for (std::size_t k = 0; k < a.cols; ++k)
        sum += x[k] * y[k];
      c.at(i, j) = sum;
    }
  }
  return c;
}

} // namespace gnnpart::train
