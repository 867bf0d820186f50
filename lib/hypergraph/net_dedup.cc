#include "hypergraph/net_dedup.h"

#include <algorithm>
#include <numeric>

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include "core/random.h"

namespace gnnpart::hg {

std::uint64_t net_fingerprint(std::span<const NodeID> pins) {
  std::uint64_t h = splitmix64(pins.size());
  for (NodeID p : pins)
    h = splitmix64(h ^ p);
  return h;
}

NetList merge_identical_nets(NetList nets, NodeID min_size) {
  const std::size_t m = nets.offsets.size() - 1;
  auto size_of = [&](std::size_t e) { return nets.offsets[e + 1] - nets.offsets[e]; };
  auto pins_of = [&](std::size_t e) {
    return std::span<const NodeID>(nets.pins.data() + nets.offsets[e], size_of(e));
  };
  struct Key {
    std::uint64_t hash;
    NetID net;
  };
  std::vector<Key> keys(m);
  tbb::parallel_for(std::size_t{0}, m, [&](std::size_t e) {
    keys[e] = {net_fingerprint(pins_of(e)), static_cast<NetID>(e)};
  });
  tbb::parallel_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.net < b.net;
  });
  // representative[e]: the net e merges into (itself if kept; a lower id); weight summed into it.
  std::vector<NetID> representative(m);
  std::iota(representative.begin(), representative.end(), NetID{0});
  // Groups of equal hash are tiny; compare each member with earlier representatives in it.
  std::size_t begin = 0;
  while (begin < m) {
    std::size_t end = begin + 1;
    while (end < m && keys[end].hash == keys[begin].hash)
      ++end;
    for (std::size_t i = begin + 1; i < end; ++i) {
      const NetID e = keys[i].net;
      for (std::size_t j = begin; j < i; ++j) {
        const NetID r = keys[j].net;
        if (representative[r] != r)
          continue;
        const auto a = pins_of(e), b = pins_of(r);
        if (a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin())) {
          representative[e] = r;
          nets.weights[r] += nets.weights[e];
          break;
        }
      }
    }
    begin = end;
  }
  keys = {};
  // Kept nets move left in place, in order: net e's pins go to or before where they are, and
  // offsets[e + 1] is read before a kept net overwrites it.
  std::size_t kept = 0;
  EdgeID write = 0;
  EdgeID first = 0;
  for (std::size_t e = 0; e < m; ++e) {
    const EdgeID last = nets.offsets[e + 1];
    if (representative[e] == e && last - first >= min_size) {
      if (write != first)
        std::copy(nets.pins.begin() + first, nets.pins.begin() + last, nets.pins.begin() + write);
      write += last - first;
      nets.weights[kept] = nets.weights[e];
      nets.offsets[++kept] = write;
    }
    first = last;
  }
  // Exact sizes: the arrays become a level's, alive until its refinement (contraction's arrays
  // had room for the dropped nets: cnr-2000 k = 32's first coarse level took 4.5 MiB more).
  nets.pins.resize(write);
  nets.pins.shrink_to_fit();
  nets.offsets.resize(kept + 1);
  nets.offsets.shrink_to_fit();
  nets.weights.resize(kept);
  nets.weights.shrink_to_fit();
  return nets;
}

} // namespace gnnpart::hg
