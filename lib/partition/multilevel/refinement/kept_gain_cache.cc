#include "partition/multilevel/refinement/kept_gain_cache.h"

namespace gnnpart::ml {

GainCache& KeptGainCache::of(const PartitionedGraph& p) {
  const std::span<const BlockID> blocks = p.blocks();
  const bool current = cache_ && graph_ == &p.graph() && cache_->k() == p.k() && !blocks_.empty() &&
                       blocks_.equals(blocks);
  superset_.reset();
  if (!current) {
    seeds_.clear();
    cache_.reset(); // free the old one before the new one is built
    cache_.emplace(p.graph(), blocks, p.k(), hint_ ? &*hint_ : nullptr);
    graph_ = &p.graph();
    superset_.swap(hint_);
  }
  hint_.reset();
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
  superset_.reset();
}

bool KeptGainCache::supports(const CsrGraph& graph) {
  if (facts_graph_ != &graph) {
    facts_ = GainCache::weight_facts(graph);
    facts_graph_ = &graph;
  }
  return facts_.supports;
}

bool KeptGainCache::positive_edge_weights(const CsrGraph& graph) {
  supports(graph);
  return facts_.positive;
}

std::optional<std::vector<std::uint8_t>>
KeptGainCache::boundary_flags(const PartitionedGraph& p) const {
  if (!cache_ || graph_ != &p.graph() || cache_->k() != p.k() || blocks_.empty() ||
      !blocks_.equals(p.blocks()))
    return std::nullopt;
  std::vector<std::uint8_t> flags(p.graph().num_nodes(), 0);
  for (const NodeID u : cache_->boundary_list(p.graph(), p.blocks()))
    flags[u] = 1;
  return flags;
}

} // namespace gnnpart::ml
