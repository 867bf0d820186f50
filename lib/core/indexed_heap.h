#pragma once
// Addressable binary max-heap of ids 0..capacity-1 with changeable keys; O(capacity) positions,
// no allocation per operation once grown. Deterministic ties: by default equal keys leave in an
// order fixed by the heap's structure (the engines' gain queues); with kFifoTies they leave in
// push order (streaming's buffer, where a stream's locality should survive). The positions may
// live outside the heap (a span of kAbsent entries), so that heaps whose ids never meet at the
// same time can share one array (the block-group FM's per-thread searches).
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/types.h"

namespace gnnpart {

template <typename Key, bool kFifoTies = false>
class IndexedHeap {
public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;
  explicit IndexedHeap(std::uint32_t capacity)
      : own_positions_(capacity, kAbsent), position_(own_positions_.data()) {}
  // Positions kept in `positions` (all kAbsent; they are again after clear()), which must
  // outlive the heap.
  explicit IndexedHeap(std::span<std::uint32_t> positions) : position_(positions.data()) {}
  IndexedHeap(const IndexedHeap&) = delete;
  IndexedHeap& operator=(const IndexedHeap&) = delete;
  IndexedHeap(IndexedHeap&&) noexcept = default; // a vector's move keeps its buffer
  IndexedHeap& operator=(IndexedHeap&&) noexcept = default;

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool contains(std::uint32_t id) const { return position_[id] != kAbsent; }
  std::uint32_t top() const { return heap_.front().id; }
  Key top_key() const { return heap_.front().key; }
  Key key(std::uint32_t id) const { return heap_[position_[id]].key; }

  void push(std::uint32_t id, Key key) {
    Entry e{key, {}, id};
    if constexpr (kFifoTies)
      e.stamp = next_stamp_++;
    position_[id] = static_cast<std::uint32_t>(heap_.size());
    heap_.push_back(e);
    sift_up(heap_.size() - 1);
  }
  void update(std::uint32_t id, Key key) {
    const std::size_t i = position_[id];
    const Key old = heap_[i].key;
    heap_[i].key = key;
    if (key > old)
      sift_up(i);
    else
      sift_down(i);
  }
  void push_or_update(std::uint32_t id, Key key) {
    if (contains(id))
      update(id, key);
    else
      push(id, key);
  }
  std::uint32_t pop() {
    const std::uint32_t id = heap_.front().id;
    remove_at(0);
    return id;
  }
  void remove(std::uint32_t id) { remove_at(position_[id]); }
  void clear() {
    for (const Entry& e : heap_)
      position_[e.id] = kAbsent;
    heap_.clear();
  }

private:
  struct NoStamp {};
  using Stamp = std::conditional_t<kFifoTies, std::uint64_t, NoStamp>;
  struct Entry {
    Key key;
    [[no_unique_address]] Stamp stamp;
    std::uint32_t id;
  };
  // Whether a belongs above b.
  static bool above(const Entry& a, const Entry& b) {
    if constexpr (kFifoTies)
      return a.key > b.key || (a.key == b.key && a.stamp < b.stamp);
    else
      return a.key > b.key;
  }
  void remove_at(std::size_t i) {
    position_[heap_[i].id] = kAbsent;
    if (i + 1 == heap_.size()) {
      heap_.pop_back();
      return;
    }
    heap_[i] = heap_.back();
    heap_.pop_back();
    const std::uint32_t moved = heap_[i].id;
    position_[moved] = static_cast<std::uint32_t>(i);
    sift_up(i);
    sift_down(position_[moved]);
  }
  void sift_up(std::size_t i) {
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!above(heap_[i], heap_[p]))
        break;
      swap_entries(i, p);
      i = p;
    }
  }
  void sift_down(std::size_t i) {
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= heap_.size())
        return;
      if (child + 1 < heap_.size() && above(heap_[child + 1], heap_[child]))
        ++child;
      if (!above(heap_[child], heap_[i]))
        return;
      swap_entries(i, child);
      i = child;
    }
  }
  void swap_entries(std::size_t a, std::size_t b) {
    std::swap(heap_[a], heap_[b]);
    position_[heap_[a].id] = static_cast<std::uint32_t>(a);
    position_[heap_[b].id] = static_cast<std::uint32_t>(b);
  }
  std::vector<Entry> heap_;
  std::vector<std::uint32_t> own_positions_; // empty when the positions are outside
  std::uint32_t* position_;
  std::uint64_t next_stamp_ = 0;
};

// The engines' gain queues: vertex ids keyed by gain.
using IndexedMaxHeap = IndexedHeap<Weight>;

} // namespace gnnpart
