#include "partition/multilevel/refinement/volume_refiner.h"

#include <algorithm>
#include <vector>

#include "core/random.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/vertex_order.h"

namespace gnnpart::ml {
namespace {

// Per-vertex lists of (block, count) over the closed neighbourhood.
class BlockCounts {
public:
  BlockCounts(const CsrGraph& g, std::span<const BlockID> blocks, BlockID k)
      : offsets_(static_cast<std::size_t>(g.num_nodes()) + 1, 0), size_(g.num_nodes(), 0) {
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      offsets_[u + 1] = offsets_[u] + std::min<EdgeID>(g.degree(u) + 1, k);
    entries_.resize(offsets_.back());
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      add(u, blocks[u]);
      for (NodeID v : g.neighbors(u))
        add(u, blocks[v]);
    }
  }
  NodeID count(NodeID w, BlockID b) const {
    const Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      if (e[i].block == b)
        return e[i].count;
    return 0;
  }
  NodeID lambda(NodeID w) const { return size_[w]; }
  template <typename F> void for_each(NodeID w, F&& f) const {
    const Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      f(e[i].block);
  }
  void add(NodeID w, BlockID b) {
    Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      if (e[i].block == b) {
        ++e[i].count;
        return;
      }
    e[size_[w]++] = {b, 1};
  }
  void remove(NodeID w, BlockID b) {
    Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      if (e[i].block == b) {
        if (--e[i].count == 0)
          e[i] = e[--size_[w]];
        return;
      }
  }

private:
  struct Entry {
    BlockID block;
    NodeID count;
  };
  std::vector<EdgeID> offsets_;
  std::vector<NodeID> size_;
  std::vector<Entry> entries_;
};

} // namespace

Weight volume_refine(PartitionedGraph& p, const BlockLimits& limits, int passes,
                     std::uint64_t seed) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  BlockCounts counts(g, p.blocks(), p.k());
  RatingMap<BlockID> present(p.k()); // blocks b: #w in N[u] with count_w(b) > 0
  Weight total = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const std::vector<NodeID> order = chunked_random_order(n, derive_seed(seed, 5, pass));
    Weight pass_gain = 0;
    for (NodeID u : order) {
      if (counts.lambda(u) <= 1)
        continue;
      const BlockID from = p.block(u);
      Weight loss_from = 0; // neighbourhoods that lose `from` entirely
      auto visit = [&](NodeID w) {
        counts.for_each(w, [&](BlockID b) { present.add(b, 1); });
        if (counts.count(w, from) == 1)
          ++loss_from;
      };
      visit(u);
      for (NodeID w : g.neighbors(u))
        visit(w);
      const Weight closed = static_cast<Weight>(g.degree(u)) + 1;
      BlockID best = kInvalidBlockID;
      Weight best_delta = 0; // volume change; negative is an improvement
      counts.for_each(u, [&](BlockID b) {
        if (b == from)
          return;
        const Weight delta = (closed - present.get(b)) - loss_from;
        if (delta < best_delta && p.fits(u, b, limits)) {
          best_delta = delta;
          best = b;
        }
      });
      present.clear();
      if (best == kInvalidBlockID)
        continue;
      p.move(u, best);
      counts.remove(u, from);
      counts.add(u, best);
      for (NodeID w : g.neighbors(u)) {
        counts.remove(w, from);
        counts.add(w, best);
      }
      pass_gain -= best_delta;
    }
    total += pass_gain;
    if (pass_gain == 0)
      break;
  }
  return total;
}

} // namespace gnnpart::ml
