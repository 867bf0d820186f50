// collect_ghosts and GhostIndex (finish_dist_graph's ghosts and local ids) against a sort and a
// binary search over all ghosts; both indexes (the bitmap when ghosts are dense, the buckets
// otherwise) are reached by these sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/random.h"
#include "distributed/ghost_ids.h"

namespace gnnpart::distributed {
namespace {

std::vector<NodeID> expected_ghosts(std::vector<NodeID> adjacency, NodeID first, NodeID last) {
  std::erase_if(adjacency, [&](NodeID v) { return v >= first && v < last; });
  std::sort(adjacency.begin(), adjacency.end());
  adjacency.erase(std::unique(adjacency.begin(), adjacency.end()), adjacency.end());
  return adjacency;
}

void check(const std::vector<NodeID>& adjacency, NodeID first, NodeID last, std::uint64_t n) {
  const std::vector<NodeID> ghosts = collect_ghosts(adjacency, first, last, n);
  ASSERT_EQ(ghosts, expected_ghosts(adjacency, first, last)) << "n " << n;
  const GhostIndex index(ghosts, n);
  for (const NodeID v : adjacency) {
    if (v >= first && v < last)
      continue;
    const auto it = std::lower_bound(ghosts.begin(), ghosts.end(), v);
    ASSERT_EQ(index.position(v), static_cast<NodeID>(it - ghosts.begin())) << "n " << n;
  }
}

TEST(GhostIds, SpreadIdsManyRepeats) {
  Rng rng(11);
  for (const std::uint64_t n : {1u, 2u, 100u, 70000u, 300000u}) {
    for (const std::size_t entries : {0u, 1u, 17u, 5000u, 400000u}) {
      std::vector<NodeID> adjacency(entries);
      for (NodeID& v : adjacency)
        v = static_cast<NodeID>(rng.below(n));
      const NodeID first = static_cast<NodeID>(n / 3);
      check(adjacency, first, static_cast<NodeID>(std::min<std::uint64_t>(n, first + n / 4)), n);
      check(adjacency, 0, 0, n); // no owned range: every id is a ghost
    }
  }
}

TEST(GhostIds, ClusteredIdsAndTheLargestIds) {
  // Ghosts crowded into a few buckets of the index (ids not shuffled), ids up to 2^32 - 1 with
  // n = 2^32, and a bucket of collect_ghosts filled far past its first capacity.
  Rng rng(13);
  const std::uint64_t n = std::uint64_t{1} << 32;
  std::vector<NodeID> adjacency;
  for (std::size_t i = 0; i < 300000; ++i) {
    const std::uint64_t base = i % 4 == 0 ? (n - 1000) : (i % 4 == 1 ? 5 : (1u << 20));
    adjacency.push_back(static_cast<NodeID>(base + rng.below(i % 4 == 2 ? 65536 : 995)));
  }
  adjacency.push_back(static_cast<NodeID>(n - 1));
  adjacency.push_back(0);
  check(adjacency, 1000, 2000, n);
  check(adjacency, static_cast<NodeID>(n - 500), static_cast<NodeID>(n - 1), n);
}

} // namespace
} // namespace gnnpart::distributed
