#include "partition/multilevel/refinement/kept_gain_cache.h"

#include <algorithm>

namespace gnnpart::ml {

GainCache& KeptGainCache::of(const PartitionedGraph& p) {
  const std::span<const BlockID> blocks = p.blocks();
  const bool current = cache_ && graph_ == &p.graph() && cache_->k() == p.k() &&
                       blocks_.size() == blocks.size() &&
                       std::equal(blocks.begin(), blocks.end(), blocks_.begin());
  if (!current) {
    seeds_.clear();
    cache_.reset(); // free the old one before the new one is built
    cache_.emplace(p.graph(), blocks, p.k());
    graph_ = &p.graph();
  }
  blocks_.clear(); // until matched() says the run that takes it kept it current
  return *cache_;
}

void KeptGainCache::matched(const PartitionedGraph& p) {
  blocks_.assign(p.blocks().begin(), p.blocks().end());
}

void KeptGainCache::release() {
  cache_.reset();
  std::vector<BlockID>().swap(blocks_);
  std::vector<NodeID>().swap(seeds_);
}

} // namespace gnnpart::ml
