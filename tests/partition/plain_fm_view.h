#pragma once
// FmSearch's View over the partition itself, connections counted from the adjacency (unit edge
// weights): the simplest view, for tests of the search alone. With `cheap`, it claims a cheap
// conn() (as a gain cache does), which the search's tie-break and re-rating ask for.
#include "core/block_limits.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml_test {

class PlainView {
public:
  PlainView(ml::PartitionedGraph& p, const BlockLimits& limits, bool cheap = false)
      : p_(p), limits_(limits), cheap_(cheap) {}
  BlockID block(NodeID v) const { return p_.block(v); }
  Weight block_weight(BlockID b) const { return p_.block_weight(b); }
  bool fits(NodeID u, BlockID b) const { return p_.fits(u, b, limits_); }
  bool movable(NodeID) const { return true; }
  bool cheap_conn() const { return cheap_; }
  Weight conn(NodeID v, BlockID b) const {
    Weight sum = 0;
    for (NodeID w : p_.graph().neighbors(v))
      sum += p_.block(w) == b ? 1 : 0;
    return sum;
  }
  template <typename F> void for_each(NodeID v, F&& f) const {
    for (BlockID b = 0; b < p_.k(); ++b)
      if (const Weight c = conn(v, b); c > 0)
        f(b, c);
  }
  void move(NodeID u, BlockID to) { p_.move(u, to); }

private:
  ml::PartitionedGraph& p_;
  const BlockLimits& limits_;
  bool cheap_;
};

} // namespace gnnpart::ml_test
