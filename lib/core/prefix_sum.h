#pragma once
// Parallel exclusive prefix sums, the step between counting and scattering in every CSR build
// (GAP's count -> prefix sum -> scatter). Integer sums, so the result does not depend on the
// thread count or the schedule.
#include <cstddef>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_scan.h>
#include <tbb/task_arena.h>

namespace gnnpart {

// out[i] = count(0) + ... + count(i - 1) for i in [0, n], so out[n] is the total, which is
// returned. `out` holds n + 1 elements; count(i) is called once or twice per i (parallel_scan's
// pre-scan), so it must be a pure function of i. One grain or one thread: a plain loop.
template <typename T, typename Count>
T exclusive_prefix_sum(std::size_t n, Count&& count, std::span<T> out) {
  constexpr std::size_t kGrain = 4096;
  if (n <= kGrain || tbb::this_task_arena::max_concurrency() == 1) {
    // One grain, or one thread: the scan's task and its body reading `out` and `count` through
    // references cost several times this loop (a gain cache's row offsets on every level).
    T* const dst = out.data();
    T sum{0};
    for (std::size_t i = 0; i != n; ++i) {
      dst[i] = sum;
      sum += static_cast<T>(count(i));
    }
    dst[n] = sum;
    return sum;
  }
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

// CSR offsets from per-row counts: offsets gets counts.size() + 1 elements, offsets[i] the sum of
// counts[0, i).
template <typename T>
void offsets_from_counts(std::span<const T> counts, std::vector<T>& offsets) {
  offsets.resize(counts.size() + 1);
  exclusive_prefix_sum(
      counts.size(), [&](std::size_t i) { return counts[i]; }, std::span<T>(offsets));
}

} // namespace gnnpart
