#pragma once
// The ghosts of a rank (the off-range ids of its adjacency) and the map from a ghost's global id
// to its position among them, with memory touched in cache-sized pieces. finish_dist_graph did
// both with one buffer sorted again whenever it filled (O(e log g), sorts of up to 4g ids) and
// a binary search over all ghosts per entry: on R-MAT 10^8 at P = 4 the two took 64.6 of the
// input phase's 115.7 s of CPU (all ranks; the search's last steps miss the cache and TLB one
// after another), 18.1 to 20.2x their 3.20 / 3.31 s on R-MAT 10^7.
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::distributed {

// The distinct ids of adjacency outside [first, last), increasing; ids < n. The ids are kept in
// buckets of 2^16 consecutive ids, each deduplicated in place whenever it fills (through an
// 8 KiB bitmap of the bucket's ids once it is long) and doubled only when that leaves it at least
// half full: the buckets hold at most 4 ids per ghost plus 64 B per bucket, and every id costs
// a few operations in cache instead of a share of sorts over all ghosts.
std::vector<NodeID> collect_ghosts(std::span<const NodeID> adjacency, NodeID first, NodeID last,
                                   std::uint64_t n);

// Position of a ghost's global id in the sorted ghost list, by one of two indexes:
// - dense ghosts (at least n / 16: then it is no larger than the list): a bitmap of the ids
//   [0, n) in words of 32 ids, each with the count of ghosts before it (8 B per 32 ids): one
//   load per lookup, from an array of n / 4 bytes (2.5 MB for R-MAT 10^8 at P = 4, against
//   22 MB of list and index);
// - otherwise a direct index by the id's high bits (buckets of 2^s ids, s the smallest with at
//   most as many buckets as ghosts: 4 B per ghost), then a binary search within the bucket
//   (about one ghost when ids are spread).
// Either way lookups of different entries do not wait on each other, unlike the log2(g)
// dependent loads of a binary search over all ghosts.
class GhostIndex {
public:
  // ghosts: sorted, distinct, all < n; kept by reference (must outlive the index).
  GhostIndex(std::span<const NodeID> ghosts, std::uint64_t n);
  // The position of v, which must be one of the ghosts.
  NodeID position(NodeID v) const {
    if (!words_.empty()) {
      const Word w = words_[v >> 5];
      return w.before +
             static_cast<NodeID>(std::popcount(w.bits & ((std::uint32_t{1} << (v & 31)) - 1)));
    }
    return bucket_position(v);
  }

private:
  struct Word {
    std::uint32_t bits;   // bit i: id 32 w + i is a ghost
    std::uint32_t before; // ghosts with smaller ids
  };
  NodeID bucket_position(NodeID v) const;
  std::span<const NodeID> ghosts_;
  std::vector<Word> words_; // dense
  unsigned shift_ = 0;
  std::vector<NodeID> first_; // sparse: first_[b] is the first ghost with id >> shift_ >= b
};

} // namespace gnnpart::distributed
