#pragma once
// Parallel exclusive prefix sums, the step between counting and scattering in every CSR build
// (GAP's count -> prefix sum -> scatter). Integer sums, so the result does not depend on the
// thread count or the schedule.
#include <cstddef>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_scan.h>

namespace gnnpart {

// out[i] = count(0) + ... + count(i - 1) for i in [0, n], so out[n] is the total, which is
// returned. `out` holds n + 1 elements; count(i) is called once or twice per i (parallel_scan's
// pre-scan), so it must be a pure function of i.
template <typename T, typename Count>
T exclusive_prefix_sum(std::size_t n, Count&& count, std::span<T> out) {
  constexpr std::size_t kGrain = 4096;
  const T total = tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, n, kGrain), T{0},
      [&](const tbb::blocked_range<std::size_t>& r, T sum, bool is_final) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          if (is_final)
            out[i] = sum;
          sum += static_cast<T>(count(i));
        }
        return sum;
      },
      [](T a, T b) { return a + b; });
  out[n] = total;
  return total;
}

} // namespace gnnpart
