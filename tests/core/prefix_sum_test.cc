// The parallel exclusive prefix sum against std::exclusive_scan, for sizes around its grain and
// any thread count.
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "core/parallel.h"
#include "core/prefix_sum.h"
#include "core/random.h"
#include "core/types.h"

namespace gnnpart {
namespace {

TEST(PrefixSum, MatchesTheSequentialScan) {
  Rng rng(3);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096},
                              std::size_t{4097}, std::size_t{100003}}) {
    std::vector<EdgeID> counts(n);
    for (EdgeID& c : counts)
      c = rng.below(1000);
    std::vector<EdgeID> expected(n + 1, 0);
    std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), EdgeID{0});
    expected[n] = std::accumulate(counts.begin(), counts.end(), EdgeID{0});
    for (const int threads : {1, 2, 4}) {
      std::vector<EdgeID> out(n + 1, 77);
      const EdgeID total = run_with_threads(threads, [&] {
        return exclusive_prefix_sum(
            n, [&](std::size_t i) { return counts[i]; }, std::span<EdgeID>(out));
      });
      EXPECT_EQ(total, expected[n]) << "n=" << n << " threads=" << threads;
      EXPECT_EQ(out, expected) << "n=" << n << " threads=" << threads;
    }
  }
}

} // namespace
} // namespace gnnpart
