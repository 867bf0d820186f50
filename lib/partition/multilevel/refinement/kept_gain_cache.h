#pragma once
// The gain cache that the FM refiners of one level share (refine_level owns one). The first FM
// run on a level builds it and keeps it current with every move it makes; a later FM run reuses
// it while the partition is still the one it describes, instead of building it again. Refiners
// that move vertices without it (the rebalancer, relaxed FM's rollback) leave it stale, which a
// copy of the blocks it was last matched with (core/narrow_blocks.h) tells: on the default preset's
// levels the rebalancer between strict and relaxed FM usually moves nothing, so relaxed FM starts
// from strict FM's cache.
#include <cstdint>
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
  // GainCache::supports(graph), summed over the edge weights once per graph rather than by
  // every refiner of the level that asks.
  bool supports(const CsrGraph& graph);
  // Whether every edge weight of graph is positive, found by the same pass as supports().
  bool positive_edge_weights(const CsrGraph& graph);
  // Seeds for the next FM run's first pass (a greedy pass's boundary list), handed on with
  // matched(); the next of() drops them unless the cache is still current.
  void hand_seeds(std::vector<NodeID>&& seeds) { seeds_ = std::move(seeds); }
  std::vector<NodeID> take_seeds() {
    std::vector<NodeID> seeds;
    seeds.swap(seeds_);
    return seeds;
  }
  // A boundary superset of the partition the next of() will see (GainCache's constructor): the
  // new cache is built from it, and its first pass's seeds can be found among it. The caller
  // drops it (drop_hint) when the partition changes before that of().
  void hint(std::optional<std::vector<NodeID>> superset) { hint_ = std::move(superset); }
  void drop_hint() { hint_.reset(); }
  // The hint the last of() built its cache from, valid until a vertex moves; nullopt when that
  // of() reused the cache or had no hint. Taken once.
  std::optional<std::vector<NodeID>> take_superset() {
    std::optional<std::vector<NodeID>> superset;
    superset.swap(superset_);
    return superset;
  }
  // For the next finer level's hint: flags[u] = 1 where u may have a neighbour in another block,
  // read from the rows when the cache still describes p (else nullopt: no hint, rather than a
  // scan of the adjacency that would cost what the hint saves).
  std::optional<std::vector<std::uint8_t>> boundary_flags(const PartitionedGraph& p) const;

private:
  std::optional<GainCache> cache_;
  const CsrGraph* graph_ = nullptr;
  NarrowBlocks blocks_;                     // the partition cache_ describes; empty: none
  std::vector<NodeID> seeds_;               // hand_seeds()'s list, valid while cache_ is current
  std::optional<std::vector<NodeID>> hint_; // for the next of()
  std::optional<std::vector<NodeID>> superset_; // the hint cache_ was built from
  const CsrGraph* facts_graph_ = nullptr;       // the graph facts_ were found for
  GainCache::WeightFacts facts_{};
};

} // namespace gnnpart::ml
