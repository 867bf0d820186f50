// Which vertices a localized FM search locks for the rest of its pass: those of its kept (best)
// prefix, not those whose moves are rolled back (docs/generalisation.md: locking those froze the
// region around every failed search). Checked on a search whose best prefix is followed by
// non-improving moves, over a plain view of the partition.
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

using ml_test::PlainView;

TEST(FmLocking, OnlyTheKeptPrefixStaysLocked) {
  // Path 0-1-...-7; vertex 3 sits in block 1 between two block-0 vertices: moving it gains 2,
  // and every move after it gains nothing, so the search rolls them back.
  const CsrGraph g =
      ml_test::graph_from_edges(8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}});
  ml::PartitionedGraph p(g, 2, {0, 0, 0, 1, 0, 1, 1, 1});
  const BlockLimits limits = uniform_limits(g, 2, 0.5);
  ml::RefinementContext ctx;
  ctx.fm_max_bad = 3;
  PlainView view(p, limits);
  ml::FmSearch<PlainView> search(view, g, ctx);
  std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  const std::vector<NodeID> seeds = {3};
  EXPECT_EQ(search.run(seeds, locked), 2);
  ASSERT_EQ(search.best_len(), 1u);
  EXPECT_EQ(search.moves()[0].u, 3u);
  ASSERT_GT(search.moves().size(), search.best_len()); // non-improving moves were tried
  search.lock_kept(locked);
  EXPECT_EQ(locked[3], 1);
  for (std::size_t j = search.best_len(); j < search.moves().size(); ++j)
    EXPECT_EQ(locked[search.moves()[j].u], 0) << "vertex " << search.moves()[j].u;
  int count = 0;
  for (std::uint8_t l : locked)
    count += l;
  EXPECT_EQ(count, 1);
}

} // namespace
} // namespace gnnpart
