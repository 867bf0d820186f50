#pragma once
// Sparse accumulator over keys [0, capacity): a dense value array plus the list of touched keys,
// so clearing costs only what was touched. One per thread (tbb::enumerable_thread_specific).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::ml {

template <typename Key> class RatingMap {
public:
  explicit RatingMap(std::size_t capacity = 0)
      : values_(capacity, kUnused), touched_(std::make_unique_for_overwrite<Key[]>(capacity)) {}

  void ensure_capacity(std::size_t capacity) {
    if (values_.size() >= capacity)
      return;
    values_.resize(capacity, kUnused);
    auto touched = std::make_unique_for_overwrite<Key[]>(capacity);
    std::copy(touched_.get(), touched_.get() + count_, touched.get());
    touched_ = std::move(touched);
  }
  void add(Key key, Weight value) {
    Weight& slot = values_[key];
    if (slot == kUnused) {
      slot = value;
      touched_[count_++] = key;
    } else {
      slot += value;
    }
  }
  // add(key_of(i), value_of(i)) for i in [first, end), with the arrays and the count in locals:
  // through the members, every store of a value made the compiler load them again (label
  // propagation rates every arc this way).
  template <typename Index, typename KeyOf, typename ValueOf>
  void add_all(Index first, Index end, KeyOf&& key_of, ValueOf&& value_of) {
    Weight* const values = values_.data();
    Key* const touched = touched_.get();
    std::size_t count = count_;
    for (Index i = first; i < end; ++i) {
      const Key key = key_of(i);
      Weight& slot = values[key];
      if (slot == kUnused) {
        slot = value_of(i);
        touched[count++] = key;
      } else {
        slot += value_of(i);
      }
    }
    count_ = count;
  }
  bool contains(Key key) const { return values_[key] != kUnused; }
  Weight get(Key key) const { return values_[key] == kUnused ? 0 : values_[key]; }
  // The touched keys in the order of first touch (each at most once until cleared).
  std::span<const Key> keys() const { return {touched_.get(), count_}; }
  // Calls f(key, value) for every touched key in the order of first touch, then clears: one pass
  // where reading the values and clearing would take two.
  template <typename F> void drain(F&& f) {
    for (const Key key : keys()) {
      f(key, values_[key]);
      values_[key] = kUnused;
    }
    count_ = 0;
  }
  void clear() {
    for (const Key key : keys())
      values_[key] = kUnused;
    count_ = 0;
  }

private:
  static constexpr Weight kUnused = -(Weight{1} << 62);
  std::vector<Weight> values_;
  std::unique_ptr<Key[]> touched_; // room for every key; the first count_ are in use
  std::size_t count_ = 0;
};

} // namespace gnnpart::ml
