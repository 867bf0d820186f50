#pragma once
// The gain cache that the FM refiners of one level share (refine_level owns one). The first FM
// run on a level builds it and keeps it current with every move it makes; a later FM run reuses
// it while the partition is still the one it describes, instead of building it again. Refiners
// that move vertices without it (the rebalancer, relaxed FM's rollback) leave it stale, which a
// copy of the blocks it was last matched with (core/narrow_blocks.h) tells: on the default preset's
// levels the rebalancer between strict and relaxed FM usually moves nothing, so relaxed FM starts
// from strict FM's cache.
#include <optional>
#include <vector>

#include "core/narrow_blocks.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {

class KeptGainCache {
public:
  // A gain cache of p's partition: the kept one if p is still the partition it was last
  // matched with (same graph, k and blocks), else a new one. Needs GainCache::supports.
  GainCache& of(const PartitionedGraph& p);
  // The cache now describes p's partition (the FM run that used it moved both alike).
  void matched(const PartitionedGraph& p);
  // Frees the cache (before work that needs memory and will make it stale anyway).
  void release();
  // Seeds for the next FM run's first pass (a greedy pass's boundary list), handed on with
  // matched(); the next of() drops them unless the cache is still current.
  void hand_seeds(std::vector<NodeID>&& seeds) { seeds_ = std::move(seeds); }
  std::vector<NodeID> take_seeds() {
    std::vector<NodeID> seeds;
    seeds.swap(seeds_);
    return seeds;
  }

private:
  std::optional<GainCache> cache_;
  const CsrGraph* graph_ = nullptr;
  NarrowBlocks blocks_;       // the partition cache_ describes; empty: none
  std::vector<NodeID> seeds_; // hand_seeds()'s list, valid while cache_ is current
};

} // namespace gnnpart::ml
