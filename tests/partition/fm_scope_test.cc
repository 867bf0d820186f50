// FmSearch over a view with a scope (strict() and in_scope(b), as block-group FM's rotation
// phases give it): while strict, a vertex whose best move (most connection outside its block,
// ties counting as out of scope) leaves the scope offers no move; not strict, it takes its best
// move inside the scope. Checked on a star whose centre has three neighbours in an out-of-scope
// block and two in an in-scope one.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "plain_fm_view.h"

namespace gnnpart {
namespace {

// Blocks 0 and 1 in scope, block 2 not; only the scope's vertices move, only into the scope.
class ScopedView : public ml_test::PlainView {
public:
  ScopedView(ml::PartitionedGraph& p, const BlockLimits& limits, bool strict)
      : PlainView(p, limits), p_(p), strict_(strict) {}
  bool in_scope(BlockID b) const { return b < 2; }
  bool movable(NodeID v) const { return in_scope(p_.block(v)); }
  bool strict() const { return strict_; }
  bool fits(NodeID u, BlockID b) const { return in_scope(b) && PlainView::fits(u, b); }

private:
  const ml::PartitionedGraph& p_;
  bool strict_;
};

// Centre 0 in block 0 (with 6 and 7, joined to each other only); 1, 2 in block 1; 3, 4, 5 in
// block 2 (`out` of them joined to 0: 3 makes block 2 its best move, 2 ties with block 1).
Weight search_centre(bool strict, int out) {
  std::vector<std::pair<NodeID, NodeID>> edges = {{0, 1}, {0, 2}, {6, 7}};
  for (NodeID v = 3; v < 3 + static_cast<NodeID>(out); ++v)
    edges.emplace_back(0, v);
  const CsrGraph g = ml_test::graph_from_edges(8, edges);
  ml::PartitionedGraph p(g, 3, {0, 1, 1, 2, 2, 2, 0, 0});
  const BlockLimits limits = uniform_limits(g, 3, 1.0);
  ml::RefinementContext ctx;
  ScopedView view(p, limits, strict);
  ml::FmSearch<ScopedView> search(view, g, ctx);
  std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  const std::vector<NodeID> seeds = {0};
  return search.run(seeds, locked);
}

TEST(FmScope, StrictVertexWhoseBestMoveLeavesOffersNone) {
  EXPECT_EQ(search_centre(false, 3), 2); // into block 1: gains its 2 edges there
  EXPECT_EQ(search_centre(true, 3), 0);  // its best (block 2) is out of scope
  EXPECT_EQ(search_centre(true, 2), 0);  // a tie with block 2 counts as out of scope
  EXPECT_EQ(search_centre(true, 1), 2);  // block 1 is its best
}

} // namespace
} // namespace gnnpart
