#pragma once
// Max-heap over slots 0..capacity-1 with changeable keys. Ties go to the slot pushed first, so
// equal keys leave in arrival order (a stream's locality survives the buffer).
#include <cstdint>
#include <vector>

namespace gnnpart::streaming {

class IndexedMaxHeap {
public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;
  explicit IndexedMaxHeap(std::uint32_t capacity)
      : keys_(capacity, 0), stamps_(capacity, 0), position_(capacity, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(heap_.size()); }
  bool contains(std::uint32_t slot) const { return position_[slot] != kAbsent; }
  double key(std::uint32_t slot) const { return keys_[slot]; }
  std::uint32_t top() const { return heap_.front(); }

  void push(std::uint32_t slot, double key) {
    keys_[slot] = key;
    stamps_[slot] = next_stamp_++;
    position_[slot] = size();
    heap_.push_back(slot);
    sift_up(position_[slot]);
  }
  std::uint32_t pop() {
    const std::uint32_t slot = heap_.front();
    remove_at(0);
    return slot;
  }
  void change(std::uint32_t slot, double key) {
    const double old = keys_[slot];
    keys_[slot] = key;
    if (key > old) {
      sift_up(position_[slot]);
    } else {
      sift_down(position_[slot]);
    }
  }

private:
  bool above(std::uint32_t a, std::uint32_t b) const {
    return keys_[a] > keys_[b] || (keys_[a] == keys_[b] && stamps_[a] < stamps_[b]);
  }
  void place(std::uint32_t i, std::uint32_t slot) {
    heap_[i] = slot;
    position_[slot] = i;
  }
  void sift_up(std::uint32_t i) {
    const std::uint32_t slot = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
      if (!above(slot, heap_[parent]))
        break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, slot);
  }
  void sift_down(std::uint32_t i) {
    const std::uint32_t slot = heap_[i];
    const std::uint32_t n = size();
    for (;;) {
      std::uint32_t child = 2 * i + 1;
      if (child >= n)
        break;
      if (child + 1 < n && above(heap_[child + 1], heap_[child]))
        ++child;
      if (!above(heap_[child], slot))
        break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, slot);
  }
  void remove_at(std::uint32_t i) {
    const std::uint32_t slot = heap_[i];
    position_[slot] = kAbsent;
    const std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (i < heap_.size()) {
      place(i, last);
      sift_up(i);
      sift_down(position_[last]);
    }
  }

  std::vector<double> keys_;
  std::vector<std::uint64_t> stamps_; // push order of each slot
  std::uint64_t next_stamp_ = 0;
  std::vector<std::uint32_t> position_;
  std::vector<std::uint32_t> heap_;
};

} // namespace gnnpart::streaming
