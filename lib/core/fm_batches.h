#pragma once
// How both engines' parallel FM cuts a round's boundary vertices into batches of localized
// searches: searches of `seeds_per_search` unlocked seeds each, at most `batch_size` searches
// per batch, in the order of `boundary` (so the batches depend on the seed and the batch size
// only, never on the schedule).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

// Searches per batch: at least `min_batches` batches per round, so that the searches of one
// batch rarely meet; at most max_batch.
inline std::size_t fm_batch_size(std::size_t boundary_size, std::size_t seeds_per_search,
                                 int min_batches, std::size_t max_batch) {
  return std::clamp<std::size_t>(boundary_size / seeds_per_search /
                                     static_cast<std::size_t>(std::max(1, min_batches)),
                                 1, max_batch);
}

// The next batch from boundary[next, ...): search s gets seeds[begin[s], begin[s + 1]).
// Advances `next`; returns the number of searches (0 once the boundary is used up).
inline std::size_t next_fm_batch(std::span<const NodeID> boundary, std::size_t& next,
                                 std::span<const std::uint8_t> locked,
                                 std::size_t seeds_per_search, std::size_t batch_size,
                                 std::vector<NodeID>& seeds, std::vector<std::size_t>& begin) {
  seeds.clear();
  begin.assign(1, 0);
  while (next < boundary.size() && begin.size() <= batch_size) {
    while (next < boundary.size() && seeds.size() - begin.back() < seeds_per_search) {
      const NodeID u = boundary[next++];
      if (!locked[u])
        seeds.push_back(u);
    }
    if (seeds.size() > begin.back())
      begin.push_back(seeds.size());
  }
  return begin.size() - 1;
}

} // namespace gnnpart
