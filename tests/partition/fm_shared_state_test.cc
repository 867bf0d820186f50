// FmSearch over a shared per-vertex state (FmVertexState), as the block-group FM's threads use
// one: a search leaves the state at rest when it returns, even when its stop rule ended it with
// vertices still in its heap, and it makes the same moves as a search with a state of its own.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/block_limits.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "plain_fm_view.h"

namespace gnnpart {
namespace {

using ml_test::PlainView;

bool at_rest(const ml::FmVertexState& s) {
  for (std::size_t v = 0; v < s.state.size(); ++v)
    if (s.state[v] != 0 || s.heap_position[v] != IndexedMaxHeap::kAbsent)
      return false;
  return true;
}

TEST(FmSharedState, SearchesLeaveTheStateAtRestAndMatchAnOwnedState) {
  const CsrGraph g = ml_test::random_graph(400, 1600, 5);
  constexpr BlockID k = 4;
  std::vector<BlockID> blocks(g.num_nodes());
  Rng rng(3);
  for (BlockID& b : blocks)
    b = static_cast<BlockID>(rng.below(k));
  ml::PartitionedGraph owned_p(g, k, blocks), shared_p(g, k, blocks);
  const BlockLimits limits = uniform_limits(g, k, 0.1);
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 2; // stops early, with rated vertices left in the heap
  PlainView owned_view(owned_p, limits, /*cheap=*/true), shared_view(shared_p, limits, true);
  ml::FmSearch<PlainView> owned(owned_view, g, ctx);
  ml::FmVertexState state(g.num_nodes());
  ml::FmSearch<PlainView> shared(shared_view, g, ctx, state);
  const std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  bool went_past_best = false;
  for (NodeID first = 0; first + 8 <= g.num_nodes(); first += 40) {
    std::vector<NodeID> seeds;
    for (NodeID u = first; u < first + 8; ++u)
      seeds.push_back(u);
    const Weight gain = owned.run(seeds, locked);
    ASSERT_EQ(shared.run(seeds, locked), gain);
    ASSERT_TRUE(at_rest(state));
    ASSERT_EQ(shared.moves().size(), owned.moves().size());
    for (std::size_t j = 0; j < owned.moves().size(); ++j) {
      ASSERT_EQ(shared.moves()[j].u, owned.moves()[j].u);
      ASSERT_EQ(shared.moves()[j].to, owned.moves()[j].to);
    }
    went_past_best |= owned.moves().size() > owned.best_len();
  }
  EXPECT_TRUE(went_past_best); // some search was stopped by its rule, not by an empty heap
  const std::vector<BlockID> a(owned_p.blocks().begin(), owned_p.blocks().end());
  const std::vector<BlockID> b(shared_p.blocks().begin(), shared_p.blocks().end());
  EXPECT_EQ(a, b);
}

} // namespace
} // namespace gnnpart
