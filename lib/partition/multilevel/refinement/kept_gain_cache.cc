#include "partition/multilevel/refinement/kept_gain_cache.h"

namespace gnnpart::ml {

GainCache& KeptGainCache::of(const PartitionedGraph& p) {
  const std::span<const BlockID> blocks = p.blocks();
  const bool current = cache_ && graph_ == &p.graph() && cache_->k() == p.k() && !blocks_.empty() &&
                       blocks_.equals(blocks);
  if (!current) {
    seeds_.clear();
    cache_.reset(); // free the old one before the new one is built
    cache_.emplace(p.graph(), blocks, p.k());
    graph_ = &p.graph();
  }
  blocks_.clear(); // freed until matched() says the run that takes it kept it current
  return *cache_;
}

void KeptGainCache::matched(const PartitionedGraph& p) {
  blocks_ = NarrowBlocks(p.blocks(), p.k());
}

void KeptGainCache::release() {
  cache_.reset();
  blocks_.clear();
  std::vector<NodeID>().swap(seeds_);
}

} // namespace gnnpart::ml
