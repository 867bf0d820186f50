#pragma once
// A coarsening level's vertex -> cluster map while it waits for the projection of the coarser
// level's partition (coarsening.h, HgHierarchy::maps). Nothing reads it between the contraction
// it was made for and that projection, so it is kept as narrow as the coarse level allows:
// 2 bytes an entry when the coarse level has at most 2^16 vertices (the stalled levels of a web
// graph's V-cycle at large k), else 4.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::hg {

class LevelMap {
public:
  LevelMap() = default;
  // Takes `map` (every entry below num_clusters) and narrows it when num_clusters allows.
  LevelMap(std::vector<NodeID> map, NodeID num_clusters);

  std::size_t size() const { return narrow_.empty() ? wide_.size() : narrow_.size(); }
  bool is_narrow() const { return !narrow_.empty(); }
  NodeID operator[](std::size_t u) const { return narrow_.empty() ? wide_[u] : narrow_[u]; }
  // The map as 4-byte ids (a copy).
  std::vector<NodeID> to_vector() const;

  // The finer level's partition: coarse[map[u]] for every vertex u (parallel).
  std::vector<BlockID> project(std::span<const BlockID> coarse) const;

  friend bool operator==(const LevelMap& a, const LevelMap& b) {
    return a.narrow_ == b.narrow_ && a.wide_ == b.wide_;
  }

private:
  std::vector<std::uint16_t> narrow_;
  std::vector<NodeID> wide_;
};

} // namespace gnnpart::hg
