#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/indexed_heap.h"
#include "core/random.h"

namespace gnnpart {
namespace {

TEST(IndexedHeap, FifoTiesPopInKeyThenPushOrder) {
  IndexedHeap<double, true> heap(64);
  std::vector<double> keys(64);
  Rng rng(7);
  for (std::uint32_t s = 0; s < 64; ++s) {
    keys[s] = static_cast<double>(rng.below(20));
    heap.push(s, keys[s]);
  }
  for (int i = 0; i < 100; ++i) {
    const auto s = static_cast<std::uint32_t>(rng.below(64));
    keys[s] = static_cast<double>(rng.below(20));
    heap.update(s, keys[s]);
  }
  double last = 1e9;
  std::uint32_t last_slot = 0;
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t s = heap.pop();
    ASSERT_LE(keys[s], last);
    if (keys[s] == last) {
      ASSERT_GT(s, last_slot); // ties: lower slot first
    }
    last = keys[s];
    last_slot = s;
  }
  EXPECT_TRUE(heap.empty());
}

TEST(IndexedHeap, GainQueuePopsMaxKeysThroughUpdatesAndRemovals) {
  constexpr std::uint32_t n = 200;
  IndexedMaxHeap heap(n);
  std::vector<Weight> keys(n, 0);
  std::vector<bool> inside(n, false);
  Rng rng(11);
  for (int step = 0; step < 2000; ++step) {
    const auto u = static_cast<std::uint32_t>(rng.below(n));
    const Weight key = static_cast<Weight>(rng.below(50)) - 25;
    switch (rng.below(3)) {
    case 0:
      heap.push_or_update(u, key);
      keys[u] = key;
      inside[u] = true;
      break;
    case 1:
      if (inside[u]) {
        heap.remove(u);
        inside[u] = false;
      }
      break;
    default:
      if (!heap.empty()) {
        Weight best = INT64_MIN;
        for (std::uint32_t v = 0; v < n; ++v)
          if (inside[v] && keys[v] > best)
            best = keys[v];
        ASSERT_EQ(heap.top_key(), best);
        const std::uint32_t top = heap.pop();
        ASSERT_EQ(keys[top], best);
        inside[top] = false;
      }
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      ASSERT_EQ(heap.contains(v), inside[v]);
      if (inside[v]) {
        ASSERT_EQ(heap.key(v), keys[v]);
      }
    }
  }
  heap.clear();
  EXPECT_TRUE(heap.empty());
  for (std::uint32_t v = 0; v < n; ++v)
    EXPECT_FALSE(heap.contains(v));
}

TEST(IndexedHeap, HeapsOfDisjointIdsShareOnePositionArray) {
  constexpr std::uint32_t n = 100;
  std::vector<std::uint32_t> positions(n, IndexedMaxHeap::kAbsent);
  IndexedMaxHeap even{std::span(positions)}, odd{std::span(positions)};
  Rng rng(13);
  std::vector<Weight> keys(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    keys[v] = static_cast<Weight>(rng.below(1000));
    (v % 2 == 0 ? even : odd).push(v, keys[v]);
  }
  for (std::uint32_t v = 0; v < n; v += 3) {
    keys[v] -= 500;
    (v % 2 == 0 ? even : odd).update(v, keys[v]);
  }
  for (IndexedMaxHeap* heap : {&even, &odd}) {
    Weight last = INT64_MAX;
    for (int i = 0; i < 25; ++i) {
      const std::uint32_t v = heap->pop();
      ASSERT_EQ(v % 2, heap == &even ? 0u : 1u);
      ASSERT_LE(keys[v], last);
      last = keys[v];
    }
  }
  even.clear();
  odd.clear();
  for (std::uint32_t v = 0; v < n; ++v)
    EXPECT_EQ(positions[v], IndexedMaxHeap::kAbsent);
}

} // namespace
} // namespace gnnpart
