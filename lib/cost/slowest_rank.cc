#include "cost/slowest_rank.h"

#include <algorithm>
#include <cmath>

namespace gnnpart::cost {
namespace {

struct Normal {
  double mean = 0;
  double var = 0;
};

// Mean and variance of max(a, b) for independent normals a and b.
Normal max_of(const Normal& a, const Normal& b) {
  const double theta = std::sqrt(a.var + b.var);
  // (Nearly) deterministic, or one of them ahead by more than 8 standard deviations (the other
  // is larger with probability < 1e-15): the larger one.
  if (!(theta > 1e-12 * std::max(std::abs(a.mean), std::abs(b.mean))) ||
      std::abs(a.mean - b.mean) > 8 * theta)
    return a.mean >= b.mean ? a : b;
  const double alpha = (a.mean - b.mean) / theta;
  const double cdf = 0.5 * std::erfc(-alpha / std::sqrt(2.0));
  const double pdf = std::exp(-0.5 * alpha * alpha) / std::sqrt(2 * M_PI);
  const double mean = a.mean * cdf + b.mean * (1 - cdf) + theta * pdf;
  const double second = (a.mean * a.mean + a.var) * cdf + (b.mean * b.mean + b.var) * (1 - cdf) +
                        (a.mean + b.mean) * theta * pdf;
  return {mean, std::max(0.0, second - mean * mean)};
}

} // namespace

double expected_slowest_of_equal(int ranks, double spread) {
  Normal slowest{1, spread * spread};
  for (int r = 1; r < ranks; ++r)
    slowest = max_of(slowest, Normal{1, spread * spread});
  return slowest.mean;
}

double expected_slowest(const std::vector<double>& compute, const std::vector<double>& fixed,
                        double spread) {
  Normal slowest{-1, 0};
  for (std::size_t r = 0; r < compute.size(); ++r) {
    const Normal rank{compute[r] + fixed[r], compute[r] * compute[r] * spread * spread};
    slowest = r == 0 ? rank : max_of(slowest, rank);
  }
  return std::max(0.0, slowest.mean);
}

} // namespace gnnpart::cost
