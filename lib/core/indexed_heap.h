#pragma once
// Addressable binary max-heap of vertex ids keyed by gain; O(n) positions, no allocation per
// operation. Ties are broken by insertion structure only, so it is deterministic.
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart {

class IndexedMaxHeap {
public:
  explicit IndexedMaxHeap(NodeID n) : position_(n, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool contains(NodeID u) const { return position_[u] != kAbsent; }
  NodeID top() const { return heap_.front().id; }
  Weight top_key() const { return heap_.front().key; }
  Weight key(NodeID u) const { return heap_[position_[u]].key; }

  void push(NodeID u, Weight key) {
    position_[u] = static_cast<std::uint32_t>(heap_.size());
    heap_.push_back({key, u});
    sift_up(heap_.size() - 1);
  }
  void update(NodeID u, Weight key) {
    const std::size_t i = position_[u];
    const Weight old = heap_[i].key;
    heap_[i].key = key;
    if (key > old)
      sift_up(i);
    else
      sift_down(i);
  }
  void push_or_update(NodeID u, Weight key) {
    if (contains(u))
      update(u, key);
    else
      push(u, key);
  }
  NodeID pop() {
    const NodeID u = heap_.front().id;
    remove_at(0);
    return u;
  }
  void remove(NodeID u) { remove_at(position_[u]); }
  void clear() {
    for (const Entry& e : heap_)
      position_[e.id] = kAbsent;
    heap_.clear();
  }

private:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;
  struct Entry {
    Weight key;
    NodeID id;
  };
  void remove_at(std::size_t i) {
    position_[heap_[i].id] = kAbsent;
    if (i + 1 == heap_.size()) {
      heap_.pop_back();
      return;
    }
    heap_[i] = heap_.back();
    heap_.pop_back();
    const NodeID moved = heap_[i].id;
    position_[moved] = static_cast<std::uint32_t>(i);
    sift_up(i);
    sift_down(position_[moved]);
  }
  void sift_up(std::size_t i) {
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (heap_[p].key >= heap_[i].key)
        break;
      swap_entries(i, p);
      i = p;
    }
  }
  void sift_down(std::size_t i) {
    for (;;) {
      std::size_t best = i;
      const std::size_t l = 2 * i + 1, r = l + 1;
      if (l < heap_.size() && heap_[l].key > heap_[best].key)
        best = l;
      if (r < heap_.size() && heap_[r].key > heap_[best].key)
        best = r;
      if (best == i)
        return;
      swap_entries(i, best);
      i = best;
    }
  }
  void swap_entries(std::size_t a, std::size_t b) {
    std::swap(heap_[a], heap_[b]);
    position_[heap_[a].id] = static_cast<std::uint32_t>(a);
    position_[heap_[b].id] = static_cast<std::uint32_t>(b);
  }
  std::vector<Entry> heap_;
  std::vector<std::uint32_t> position_;
};

} // namespace gnnpart
