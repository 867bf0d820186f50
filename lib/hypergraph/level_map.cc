#include "hypergraph/level_map.h"

#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace gnnpart::hg {

namespace {

constexpr NodeID kNarrowClusters = NodeID{std::numeric_limits<std::uint16_t>::max()} + 1;

template <typename Id>
std::vector<BlockID> project_with(std::span<const Id> map, std::span<const BlockID> coarse) {
  std::vector<BlockID> fine(map.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, map.size(), 4096), [&](const auto& r) {
    for (std::size_t u = r.begin(); u != r.end(); ++u)
      fine[u] = coarse[map[u]];
  });
  return fine;
}

} // namespace

LevelMap::LevelMap(std::vector<NodeID> map, NodeID num_clusters) {
  if (num_clusters > kNarrowClusters || map.empty()) {
    wide_ = std::move(map);
    return;
  }
  narrow_.resize(map.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, map.size(), 4096), [&](const auto& r) {
    for (std::size_t u = r.begin(); u != r.end(); ++u)
      narrow_[u] = static_cast<std::uint16_t>(map[u]);
  });
}

std::vector<NodeID> LevelMap::to_vector() const {
  if (narrow_.empty())
    return wide_;
  return std::vector<NodeID>(narrow_.begin(), narrow_.end());
}

std::vector<BlockID> LevelMap::project(std::span<const BlockID> coarse) const {
  return narrow_.empty() ? project_with<NodeID>(wide_, coarse)
                         : project_with<std::uint16_t>(narrow_, coarse);
}

} // namespace gnnpart::hg
