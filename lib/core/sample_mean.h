#pragma once
// The mean of independent samples and its standard error: what every estimate over fresh
// samples reports (mini-batch rows and time, the stochastic hypergraph's volume).
#include <cmath>
#include <span>

namespace gnnpart {

struct SampleMean {
  double mean = 0;
  double standard_error = 0; // sample standard deviation / sqrt(samples); 0 below 2 samples
};

inline SampleMean sample_mean(std::span<const double> values) {
  SampleMean out;
  if (values.empty())
    return out;
  const double n = static_cast<double>(values.size());
  for (double v : values)
    out.mean += v;
  out.mean /= n;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values)
      squares += (v - out.mean) * (v - out.mean);
    out.standard_error = std::sqrt(squares / (n - 1)) / std::sqrt(n);
  }
  return out;
}

} // namespace gnnpart
