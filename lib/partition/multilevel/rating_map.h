#pragma once
// Sparse accumulator over keys [0, capacity): a dense value array plus the list of touched keys,
// so clearing costs only what was touched. One per thread (tbb::enumerable_thread_specific).
#include <cstddef>
#include <vector>

#include "core/types.h"

namespace gnnpart::ml {

template <typename Key> class RatingMap {
public:
  explicit RatingMap(std::size_t capacity = 0) : values_(capacity, kUnused) {}

  void ensure_capacity(std::size_t capacity) {
    if (values_.size() < capacity)
      values_.resize(capacity, kUnused);
  }
  void add(Key key, Weight value) {
    Weight& slot = values_[key];
    if (slot == kUnused) {
      slot = value;
      touched_.push_back(key);
    } else {
      slot += value;
    }
  }
  bool contains(Key key) const { return values_[key] != kUnused; }
  Weight get(Key key) const { return values_[key] == kUnused ? 0 : values_[key]; }
  const std::vector<Key>& keys() const { return touched_; }
  // Calls f(key, value) for every touched key in the order of first touch, then clears: one pass
  // where reading the values and clearing would take two.
  template <typename F> void drain(F&& f) {
    for (Key key : touched_) {
      f(key, values_[key]);
      values_[key] = kUnused;
    }
    touched_.clear();
  }
  void clear() {
    for (Key key : touched_)
      values_[key] = kUnused;
    touched_.clear();
  }

private:
  static constexpr Weight kUnused = -(Weight{1} << 62);
  std::vector<Weight> values_;
  std::vector<Key> touched_;
};

} // namespace gnnpart::ml
