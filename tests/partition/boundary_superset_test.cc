// The boundary superset of uncoarsening (METIS's projection; coarsener.h's project_flags,
// KeptGainCache's hint): a gain cache built from a superset of the boundary has the rows of a
// plain build, word for word; fm_pass_seeds finds the same seeds among it; the projected
// boundary of a coarse partition holds the boundary of the projected partition; and a level
// refined from a superset ends where it ends without one, handing on exactly its boundary.
#include <algorithm>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "core/block_limits.h"
#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/parallel_fm_refiner.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart {
namespace {

// Whether u has a neighbour joined by positive weight in another block, from the adjacency.
bool on_boundary(const CsrGraph& g, std::span<const BlockID> blocks, NodeID u) {
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
    if (g.edge_weight(e) > 0 && blocks[g.edge_target(e)] != blocks[u])
      return true;
  return false;
}

// The boundary and every `extra`-th other vertex, in increasing order.
std::vector<NodeID> superset_of(const CsrGraph& g, std::span<const BlockID> blocks, NodeID extra) {
  std::vector<NodeID> out;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    if (on_boundary(g, blocks, u) || u % extra == 0)
      out.push_back(u);
  return out;
}

// Blocks of contiguous id ranges, so that a grid has interior vertices, with every 37th vertex
// elsewhere (isolated boundary vertices inside a block).
std::vector<BlockID> ranges(NodeID n, BlockID k) {
  std::vector<BlockID> blocks(n);
  for (NodeID u = 0; u < n; ++u)
    blocks[u] = u % 37 == 0 ? (u / 37) % k : static_cast<BlockID>(std::uint64_t{u} * k / n);
  return blocks;
}

void expect_same_rows(const ml::GainCache& a, const ml::GainCache& b, NodeID n) {
  ASSERT_EQ(a.packed(), b.packed());
  for (NodeID u = 0; u < n; ++u) {
    ASSERT_EQ(a.row_size(u), b.row_size(u)) << "vertex " << u;
    std::vector<ml::GainCache::Entry> ra, rb;
    a.append_row(u, ra);
    b.append_row(u, rb);
    ASSERT_EQ(ra.size(), rb.size()) << "vertex " << u;
    for (std::size_t i = 0; i < ra.size(); ++i) {
      EXPECT_EQ(ra[i].block, rb[i].block) << "vertex " << u << " entry " << i;
      EXPECT_EQ(ra[i].conn, rb[i].conn) << "vertex " << u << " entry " << i;
    }
  }
}

std::vector<CsrGraph> test_graphs() {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(30, 40));
  graphs.push_back(ml_test::weighted_power_law_graph());
  graphs.push_back(ml_test::star_graph(300));
  {
    // Edge weights near 2^24: at k = 16 the largest weighted degrees (above 2^28) need the wide
    // layout; every 5th arc weighs 0 (a zero-weight neighbour in another block is no boundary).
    // Its total weight is above 2^31, so refine_level runs it without a gain cache.
    const CsrGraph plain = ml_test::random_graph(400, 2400, 7);
    std::vector<Weight> ew(plain.num_directed_edges());
    for (NodeID u = 0; u < plain.num_nodes(); ++u)
      for (EdgeID e = plain.first_edge(u); e < plain.last_edge(u); ++e) {
        const NodeID v = plain.edge_target(e);
        const std::uint64_t h = splitmix64(std::uint64_t{std::min(u, v)} << 32 | std::max(u, v));
        ew[e] = h % 5 == 0 ? 0 : (Weight{1} << 24) + static_cast<Weight>(h % 13);
      }
    const auto offsets = plain.offsets();
    const auto adjacency = plain.adjacency();
    graphs.emplace_back(std::vector<EdgeID>(offsets.begin(), offsets.end()),
                        std::vector<NodeID>(adjacency.begin(), adjacency.end()), std::move(ew), 1,
                        std::vector<Weight>(plain.num_nodes(), 1));
  }
  return graphs;
}

TEST(BoundarySuperset, GainCacheRowsAndSeedsAsWithout) {
  for (const CsrGraph& g : test_graphs())
    for (const BlockID k : {2u, 5u, 16u}) {
      SCOPED_TRACE(testing::Message() << "n " << g.num_nodes() << " k " << k);
      const ml::PartitionedGraph p(g, k, ranges(g.num_nodes(), k));
      for (const NodeID extra : {1u, 7u, 100000u}) {
        const std::vector<NodeID> superset = superset_of(g, p.blocks(), extra);
        if (extra > 1 && g.num_nodes() == 1200 && k <= 5) // the grid: mostly interior rows
          EXPECT_LT(superset.size(), g.num_nodes() / 2);
        const ml::GainCache plain(g, p.blocks(), k);
        const ml::GainCache hinted(g, p.blocks(), k, &superset);
        expect_same_rows(plain, hinted, g.num_nodes());
        for (int pass = 0; pass < 2; ++pass)
          EXPECT_EQ(ml::fm_pass_seeds(p, 11, pass, &plain),
                    ml::fm_pass_seeds(p, 11, pass, &hinted, &superset));
      }
    }
}

TEST(BoundarySuperset, GainCacheWithoutTheSupersetHasOtherRows) {
  // The test above can fail: a "superset" that leaves out boundary vertices gives them
  // one-block rows.
  const CsrGraph g = ml_test::grid_graph(20, 20);
  const ml::PartitionedGraph p(g, 2, ranges(g.num_nodes(), 2));
  const std::vector<NodeID> none;
  const ml::GainCache plain(g, p.blocks(), 2);
  const ml::GainCache hinted(g, p.blocks(), 2, &none);
  NodeID differ = 0;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    differ += plain.conn(u, 0) != hinted.conn(u, 0) ? 1 : 0;
  EXPECT_GT(differ, 0u);
}

TEST(BoundarySuperset, ProjectedFlagsHoldTheProjectedBoundary) {
  const CsrGraph g = ml_test::grid_graph(60, 50);
  ml::CoarseningContext ctx;
  ctx.algorithm = ml::ClusteringAlgorithm::kMatching;
  ctx.contraction_limit = 10;
  ml::Hierarchy h = ml::coarsen(g, 4, 0.03, ctx, 3);
  ASSERT_GE(h.coarsest(), 3u);
  for (std::size_t level = h.coarsest(); level >= 1; --level) {
    const CsrGraph& coarse = h.graph(level);
    const CsrGraph& fine = h.graph(level - 1);
    const std::vector<BlockID> blocks = ranges(coarse.num_nodes(), 4);
    std::vector<std::uint8_t> flags(coarse.num_nodes());
    for (NodeID c = 0; c < coarse.num_nodes(); ++c)
      flags[c] = on_boundary(coarse, blocks, c) ? 1 : 0;
    const std::vector<NodeID> list = ml::project_flags(h, level, flags);
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
    EXPECT_TRUE(std::adjacent_find(list.begin(), list.end()) == list.end());
    const std::vector<BlockID> projected = ml::project_and_free(h, level, blocks);
    NodeID boundary = 0;
    for (NodeID u = 0; u < fine.num_nodes(); ++u) {
      if (!on_boundary(fine, projected, u))
        continue;
      ++boundary;
      EXPECT_TRUE(std::binary_search(list.begin(), list.end(), u)) << "vertex " << u;
    }
    EXPECT_GT(boundary, 0u);
    if (fine.num_nodes() > 500)
      EXPECT_LT(list.size(), fine.num_nodes() / 2); // it leaves interior vertices out
  }
}

TEST(BoundarySuperset, RefinedLevelAsWithoutAndItsBoundaryHandedOn) {
  // Both presets' refiners (fast: FM; default: greedy, FM, greedy, relaxed FM) at 1, 2 and 4
  // threads (sequential FM, block groups, parallel FM).
  int compared = 0, handed = 0;
  for (const int threads : {1, 2, 4})
    for (const Preset preset : {Preset::kFast, Preset::kDefault})
      for (const CsrGraph& g : test_graphs())
        for (const BlockID k : {2u, 8u}) {
          SCOPED_TRACE(testing::Message()
                       << "threads " << threads << " preset " << static_cast<int>(preset) << " n "
                       << g.num_nodes() << " k " << k);
          const ml::MultilevelContext ctx =
              ml::create_context(ml_test::preset_options(preset, k, 1, threads));
          const BlockLimits limits = uniform_limits(g, k, 0.03);
          const std::vector<BlockID> start = ranges(g.num_nodes(), k);
          ml::PartitionedGraph plain(g, k, start);
          if (!plain.balanced(limits))
            continue;
          ml::PartitionedGraph hinted(g, k, start);
          std::optional<std::vector<std::uint8_t>> flags;
          tbb::task_arena arena(threads);
          arena.execute([&] {
            ml::refine_level(plain, limits, ctx, 21);
            ml::refine_level(hinted, limits, ctx, 21, superset_of(g, start, 50), &flags);
          });
          ++compared;
          EXPECT_TRUE(
              std::equal(plain.blocks().begin(), plain.blocks().end(), hinted.blocks().begin()));
          if (flags) {
            ++handed;
            ASSERT_EQ(flags->size(), g.num_nodes());
            for (NodeID u = 0; u < g.num_nodes(); ++u)
              EXPECT_EQ((*flags)[u] != 0, on_boundary(g, hinted.blocks(), u)) << "vertex " << u;
          }
        }
  EXPECT_GE(compared, 12);
  EXPECT_GE(handed, 6);
}

} // namespace
} // namespace gnnpart
