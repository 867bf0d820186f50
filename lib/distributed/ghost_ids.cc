#include "distributed/ghost_ids.h"

#include <algorithm>
#include <bit>

namespace gnnpart::distributed {

namespace {

constexpr unsigned kCollectShift = 16; // ids per collection bucket: 2^16
constexpr std::size_t kFirstBucketCapacity = 16;
constexpr std::size_t kBitmapFrom = 1024; // shorter buckets are sorted

// Sorts the ids of bucket b and drops repeats: a short bucket by std::sort, a long one through
// bits (a bitmap of the bucket's 2^16 ids, 8 KiB, all zero before and after): a sort costs
// about 2 log2(size) unpredictable comparisons per id, the bitmap one bit set and 1/64 of a
// word scanned, all in L1.
void compact(std::vector<NodeID>& ids, std::size_t b, std::vector<std::uint64_t>& bits) {
  if (ids.size() < kBitmapFrom) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return;
  }
  for (const NodeID v : ids)
    bits[(v >> 6) & 1023] |= std::uint64_t{1} << (v & 63);
  ids.clear(); // the distinct ids fit the capacity again
  const NodeID base = static_cast<NodeID>(b << kCollectShift);
  for (std::size_t w = 0; w < bits.size(); ++w) {
    for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
      ids.push_back(base + static_cast<NodeID>(64 * w + std::countr_zero(word)));
    bits[w] = 0;
  }
}

} // namespace

std::vector<NodeID> collect_ghosts(std::span<const NodeID> adjacency, NodeID first, NodeID last,
                                   std::uint64_t n) {
  std::vector<std::vector<NodeID>> buckets(static_cast<std::size_t>(n >> kCollectShift) + 1);
  std::vector<std::uint64_t> bits(std::size_t{1} << (kCollectShift - 6), 0);
  for (const NodeID v : adjacency) {
    if (v >= first && v < last)
      continue;
    std::vector<NodeID>& bucket = buckets[v >> kCollectShift];
    if (bucket.size() == bucket.capacity()) {
      compact(bucket, v >> kCollectShift, bits);
      if (2 * bucket.size() >= bucket.capacity())
        bucket.reserve(std::max(kFirstBucketCapacity, 2 * bucket.capacity()));
    }
    bucket.push_back(v);
  }
  std::size_t total = 0;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    compact(buckets[b], b, bits);
    total += buckets[b].size();
  }
  std::vector<NodeID> ghosts;
  ghosts.reserve(total);
  for (std::vector<NodeID>& bucket : buckets) { // in increasing ids; each freed once copied
    ghosts.insert(ghosts.end(), bucket.begin(), bucket.end());
    std::vector<NodeID>().swap(bucket);
  }
  return ghosts;
}

GhostIndex::GhostIndex(std::span<const NodeID> ghosts, std::uint64_t n) : ghosts_(ghosts) {
  if (ghosts.size() >= n / 16 && !ghosts.empty()) {
    words_.assign(static_cast<std::size_t>((n + 31) / 32), Word{0, 0});
    for (const NodeID v : ghosts)
      words_[v >> 5].bits |= std::uint32_t{1} << (v & 31);
    NodeID before = 0;
    for (Word& w : words_) {
      w.before = before;
      before += static_cast<NodeID>(std::popcount(w.bits));
    }
    return;
  }
  while (shift_ < 31 && (n >> shift_) > ghosts.size())
    ++shift_;
  const std::size_t buckets = static_cast<std::size_t>(n >> shift_) + 1;
  first_.resize(buckets + 1);
  std::size_t at = 0;
  for (std::size_t b = 0; b <= buckets; ++b) {
    while (at < ghosts.size() && (ghosts[at] >> shift_) < b)
      ++at;
    first_[b] = static_cast<NodeID>(at);
  }
}

NodeID GhostIndex::bucket_position(NodeID v) const {
  const std::size_t b = v >> shift_;
  const NodeID* begin = ghosts_.data() + first_[b];
  const NodeID* end = ghosts_.data() + first_[b + 1];
  return static_cast<NodeID>(std::lower_bound(begin, end, v) - ghosts_.data());
}

} // namespace gnnpart::distributed
