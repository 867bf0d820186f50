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

NetList merge_identical_nets(const NetList& nets, NodeID min_size) {
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
  // representative[e]: the net e merges into (itself if kept); weight summed into it.
  std::vector<NetID> representative(m);
  std::iota(representative.begin(), representative.end(), NetID{0});
  std::vector<Weight> weight(m);
  for (std::size_t e = 0; e < m; ++e)
    weight[e] = nets.weights[e];
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
          weight[r] += weight[e];
          break;
        }
      }
    }
    begin = end;
  }
  NetList result;
  result.offsets.assign(1, 0);
  for (std::size_t e = 0; e < m; ++e) {
    if (representative[e] != e || size_of(e) < min_size)
      continue;
    result.offsets.push_back(result.offsets.back() + size_of(e));
    result.weights.push_back(weight[e]);
  }
  result.pins.resize(result.offsets.back());
  std::vector<std::size_t> kept;
  kept.reserve(result.weights.size());
  for (std::size_t e = 0; e < m; ++e)
    if (representative[e] == e && size_of(e) >= min_size)
      kept.push_back(e);
  tbb::parallel_for(std::size_t{0}, kept.size(), [&](std::size_t i) {
    const auto p = pins_of(kept[i]);
    std::copy(p.begin(), p.end(), result.pins.begin() + result.offsets[i]);
  });
  return result;
}

} // namespace gnnpart::hg
