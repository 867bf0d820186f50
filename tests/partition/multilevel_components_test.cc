// Unit tests of the multilevel engine's parts against plain recomputation.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "core/random.h"
#include "multilevel_test_graphs.h"
#include "partition/multilevel/coarsening/contraction.h"
#include "partition/multilevel/coarsening/lp_clustering.h"
#include "partition/multilevel/coarsening/matching.h"
#include "partition/multilevel/initial/bisection.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/refinement/gain_cache.h"
#include "partition/multilevel/refinement/rebalancer.h"

namespace gnnpart::ml {
namespace {

TEST(MultilevelContraction, KeepsWeightsAndCutEdges) {
  const CsrGraph g = ml_test::random_graph(500, 2000, 4);
  std::vector<NodeID> clusters(g.num_nodes());
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    clusters[u] = (u * 37) % 61; // 61 labels
  const Contraction c = contract_clustering(g, clusters);
  ASSERT_EQ(c.coarse.num_nodes(), 61u);
  EXPECT_EQ(c.coarse.total_vertex_weight(0), static_cast<Weight>(g.num_nodes()));
  // Coarse edge weight = fine edges between the two clusters; no self loops.
  std::vector<Weight> between(61 * 61, 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (NodeID v : g.neighbors(u))
      if (c.mapping[u] != c.mapping[v])
        ++between[c.mapping[u] * 61 + c.mapping[v]];
  Weight seen = 0;
  for (NodeID a = 0; a < 61; ++a)
    for (EdgeID e = c.coarse.first_edge(a); e < c.coarse.last_edge(a); ++e) {
      const NodeID b = c.coarse.edge_target(e);
      EXPECT_NE(a, b);
      EXPECT_EQ(c.coarse.edge_weight(e), between[a * 61 + b]);
      seen += c.coarse.edge_weight(e);
    }
  Weight expected = 0;
  for (Weight w : between)
    expected += w;
  EXPECT_EQ(seen, expected);
  // The cut of a projected partition equals the coarse cut.
  std::vector<BlockID> coarse_blocks(61), fine_blocks(g.num_nodes());
  for (NodeID a = 0; a < 61; ++a)
    coarse_blocks[a] = a % 3;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    fine_blocks[u] = coarse_blocks[c.mapping[u]];
  EXPECT_EQ(edge_cut(c.coarse, coarse_blocks), edge_cut(g, fine_blocks));
}

// Large enough that the copy from the contraction's scratch into the coarse arrays gives pages
// back (a MiB at a time, 3 blocks of 2048 coarse vertices, about 0.5M arcs each): every coarse
// arc with its weight against a recount, so a page given back before it was copied (it reads
// as zeros) shows.
TEST(MultilevelContraction, ArcsCopiedPastGivenBackPagesMatchARecount) {
  const CsrGraph g = ml_test::random_graph(6000, 700000, 11);
  const NodeID nc = 5000;
  std::vector<NodeID> clusters(g.num_nodes());
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    clusters[u] = (u * 7919) % nc;
  const Contraction c = contract_clustering(g, clusters);
  ASSERT_EQ(c.coarse.num_nodes(), nc);
  using Arc = std::pair<std::uint64_t, Weight>; // (a * nc + b, weight)
  std::vector<std::uint64_t> fine;
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (NodeID v : g.neighbors(u))
      if (c.mapping[u] != c.mapping[v])
        fine.push_back(std::uint64_t{c.mapping[u]} * nc + c.mapping[v]);
  std::sort(fine.begin(), fine.end());
  std::vector<Arc> expected;
  for (std::size_t i = 0; i < fine.size(); ++i)
    if (expected.empty() || expected.back().first != fine[i])
      expected.emplace_back(fine[i], 1);
    else
      ++expected.back().second;
  ASSERT_GT(expected.size(), std::size_t{1} << 20); // several MiB of scratch per array
  std::vector<Arc> coarse;
  for (NodeID a = 0; a < nc; ++a)
    for (EdgeID e = c.coarse.first_edge(a); e < c.coarse.last_edge(a); ++e)
      coarse.emplace_back(std::uint64_t{a} * nc + c.coarse.edge_target(e), c.coarse.edge_weight(e));
  std::sort(coarse.begin(), coarse.end());
  ASSERT_EQ(coarse.size(), expected.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < coarse.size(); ++i)
    wrong += coarse[i] != expected[i];
  EXPECT_EQ(wrong, 0u);
}

// The coarse graph written by a plain loop: labels numbered in label order, each coarse vertex's
// arcs in the order its members' arcs (members in id order) first reach a coarse neighbour,
// parallel arcs summed, every constraint's weight summed.
Contraction reference_contraction(const CsrGraph& g, const std::vector<NodeID>& clusters) {
  const NodeID n = g.num_nodes();
  std::vector<NodeID> id(n, kInvalidNodeID);
  for (NodeID u = 0; u < n; ++u)
    id[clusters[u]] = 0;
  NodeID nc = 0;
  for (NodeID l = 0; l < n; ++l)
    if (id[l] == 0)
      id[l] = nc++;
  Contraction result;
  result.mapping.resize(n);
  std::vector<std::vector<NodeID>> members(nc);
  for (NodeID u = 0; u < n; ++u) {
    result.mapping[u] = id[clusters[u]];
    members[result.mapping[u]].push_back(u);
  }
  std::vector<EdgeID> offsets(1, 0);
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  std::vector<Weight> vertex_weights(static_cast<std::size_t>(nc) * g.ncon(), 0);
  for (NodeID c = 0; c < nc; ++c) {
    const std::size_t first = adjacency.size();
    for (const NodeID u : members[c]) {
      for (int k = 0; k < g.ncon(); ++k)
        vertex_weights[static_cast<std::size_t>(c) * g.ncon() + k] += g.vertex_weight(u, k);
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
        const NodeID cv = result.mapping[g.edge_target(e)];
        if (cv == c)
          continue;
        const auto at = std::find(adjacency.begin() + first, adjacency.end(), cv);
        if (at == adjacency.end()) {
          adjacency.push_back(cv);
          edge_weights.push_back(g.edge_weight(e));
        } else {
          edge_weights[at - adjacency.begin()] += g.edge_weight(e);
        }
      }
    }
    offsets.push_back(adjacency.size());
  }
  result.coarse = CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights),
                           g.ncon(), std::move(vertex_weights));
  return result;
}

void expect_same_contraction(const Contraction& a, const Contraction& b) {
  EXPECT_EQ(a.mapping, b.mapping);
  ASSERT_EQ(a.coarse.num_nodes(), b.coarse.num_nodes());
  EXPECT_TRUE(std::ranges::equal(a.coarse.offsets(), b.coarse.offsets()));
  EXPECT_TRUE(std::ranges::equal(a.coarse.adjacency(), b.coarse.adjacency()));
  for (EdgeID e = 0; e < a.coarse.num_directed_edges(); ++e)
    ASSERT_EQ(a.coarse.edge_weight(e), b.coarse.edge_weight(e)) << "arc " << e;
  EXPECT_EQ(a.coarse.ncon(), b.coarse.ncon());
  for (NodeID c = 0; c < a.coarse.num_nodes(); ++c)
    for (int k = 0; k < a.coarse.ncon(); ++k)
      ASSERT_EQ(a.coarse.vertex_weight(c, k), b.coarse.vertex_weight(c, k)) << "vertex " << c;
}

// Both contractions against the plain loop, arc order included (the partitions downstream depend
// on it): a matching's labels through contract_pairs and contract_clustering, and label
// propagation's clusters, on weighted graphs of several blocks of coarse vertices (1, 2 and 3
// threads; unit, one-constraint and two-constraint vertex weights).
TEST(MultilevelContraction, ArcsInFirstAppearanceOrderAsAPlainLoop) {
  for (int variant = 0; variant < 3; ++variant) {
    CsrGraph g = ml_test::random_graph(9000, 30000, 21 + variant);
    Rng rng(variant);
    if (variant > 0) {
      std::vector<Weight> edge_weights(g.num_directed_edges());
      for (NodeID u = 0; u < g.num_nodes(); ++u)
        for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
          const NodeID v = g.edge_target(e);
          edge_weights[e] =
              1 + static_cast<Weight>(splitmix64(std::min(u, v) * 9001ULL + std::max(u, v)) % 7);
        }
      g.set_edge_weights(std::move(edge_weights));
      const int ncon = variant;
      std::vector<Weight> vertex_weights(static_cast<std::size_t>(g.num_nodes()) * ncon);
      for (Weight& w : vertex_weights)
        w = 1 + static_cast<Weight>(rng.below(4));
      g.set_vertex_weights(ncon, std::move(vertex_weights));
    }
    CoarseningContext ctx;
    ctx.algorithm = ClusteringAlgorithm::kMatching;
    const std::vector<Weight> bound(g.ncon(), 6);
    const std::vector<NodeID> pairs = heavy_edge_matching(g, bound, ctx, 3 + variant);
    const std::vector<NodeID> clusters = lp_clustering(g, bound, ctx, 5 + variant);
    const Contraction want_pairs = reference_contraction(g, pairs);
    const Contraction want_clusters = reference_contraction(g, clusters);
    ASSERT_GT(want_pairs.coarse.num_nodes(), 4096u); // several blocks of 2048 coarse vertices
    for (int threads = 1; threads <= 3; ++threads) {
      tbb::task_arena arena(threads);
      arena.execute([&] {
        expect_same_contraction(contract_pairs(g, pairs), want_pairs);
        expect_same_contraction(contract_clustering(g, pairs), want_pairs);
        expect_same_contraction(contract_clustering(g, clusters), want_clusters);
      });
    }
  }
}

TEST(MultilevelClustering, RespectsTheClusterWeightLimit) {
  const CsrGraph g = ml_test::power_law_graph(3000, 3, 8);
  const std::vector<Weight> limit = {12};
  const std::vector<NodeID> clusters = lp_clustering(g, limit, CoarseningContext{}, 99);
  std::vector<Weight> weight(g.num_nodes(), 0);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    ++weight[clusters[u]];
  NodeID num_clusters = 0;
  for (Weight w : weight) {
    EXPECT_LE(w, 12);
    num_clusters += w > 0;
  }
  EXPECT_LT(num_clusters, g.num_nodes() / 2); // it really clusters
  EXPECT_EQ(clusters, lp_clustering(g, limit, CoarseningContext{}, 99));
}

// Moves are rated in parallel and applied in batch order, and the movers' neighbours are marked
// for the next round in parallel: the clusters must not depend on the thread count.
TEST(MultilevelClustering, SameClustersOnAnyThreadCount) {
  const CsrGraph g = ml_test::power_law_graph(20000, 4, 21);
  const std::vector<Weight> limit = {30};
  CoarseningContext ctx;
  ctx.lp_rounds = 4;
  ctx.batches_per_round = 8;
  std::vector<NodeID> one;
  tbb::task_arena(1).execute([&] { one = lp_clustering(g, limit, ctx, 7); });
  for (const int threads : {2, 3}) {
    std::vector<NodeID> clusters;
    tbb::task_arena(threads).execute([&] { clusters = lp_clustering(g, limit, ctx, 7); });
    EXPECT_EQ(clusters, one) << threads << " threads";
  }
  // Rounds after the first change the clusters (so they are really visited).
  ctx.lp_rounds = 1;
  std::vector<NodeID> first_round;
  tbb::task_arena(2).execute([&] { first_round = lp_clustering(g, limit, ctx, 7); });
  EXPECT_NE(first_round, one);
}

TEST(MultilevelClustering, FollowsEdgeWeightsOnSmallDegrees) {
  // A path whose edges weigh 10, 1, 10, 1, ...: every vertex has at most 2 arcs (the short
  // candidate list, weighted), and with clusters of at most 2 vertices each vertex can only end
  // with its heavy partner, whichever of the two moves first.
  const NodeID n = 40;
  std::vector<EdgeID> offsets(n + 1, 0);
  std::vector<NodeID> adjacency;
  std::vector<Weight> weights;
  for (NodeID u = 0; u < n; ++u) {
    for (const NodeID v : {u - 1, u + 1}) {
      if (v >= n) // u - 1 wraps for u = 0
        continue;
      adjacency.push_back(v);
      weights.push_back(std::min(u, v) % 2 == 0 ? 10 : 1);
    }
    offsets[u + 1] = adjacency.size();
  }
  const CsrGraph g(std::move(offsets), std::move(adjacency), std::move(weights));
  CoarseningContext ctx;
  ctx.lp_rounds = 1;
  ctx.batches_per_round = 1; // every decision from the singletons
  ctx.two_hop = false;
  const std::vector<Weight> limit = {2};
  for (const std::uint64_t seed : {1, 2, 3}) {
    const std::vector<NodeID> clusters = lp_clustering(g, limit, ctx, seed);
    for (NodeID u = 0; u + 1 < n; u += 2) {
      EXPECT_EQ(clusters[u], clusters[u + 1]);
      if (u + 2 < n) {
        EXPECT_NE(clusters[u + 1], clusters[u + 2]);
      }
    }
  }
}

TEST(MultilevelRatingMap, DrainVisitsSumsInFirstTouchOrderAndClears) {
  RatingMap<NodeID> map(10);
  map.add(7, 2);
  map.add(3, 5);
  map.add(7, 4);
  std::vector<std::pair<NodeID, Weight>> seen;
  map.drain([&](NodeID key, Weight value) { seen.emplace_back(key, value); });
  EXPECT_EQ(seen, (std::vector<std::pair<NodeID, Weight>>{{7, 6}, {3, 5}}));
  EXPECT_TRUE(map.keys().empty());
  EXPECT_FALSE(map.contains(7));
  EXPECT_FALSE(map.contains(3));
  map.add(7, 1); // starts from the unused mark again, not from 6
  EXPECT_EQ(map.get(7), 1);
}

TEST(MultilevelGainCache, MatchesRecomputationAfterMoves) {
  // Average degree 8: at k = 5 most rows are dense (deg >= k), at k = 16 most are lists.
  const CsrGraph g = ml_test::random_graph(400, 1600, 6);
  for (const BlockID k : {BlockID{5}, BlockID{16}}) {
    std::vector<BlockID> blocks(g.num_nodes());
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      blocks[u] = u % k;
    GainCache cache(g, blocks, k);
    Rng rng(1);
    for (int i = 0; i < 300; ++i) {
      const auto u = static_cast<NodeID>(rng.below(g.num_nodes()));
      const auto to = static_cast<BlockID>(rng.below(k)); // sometimes its own block
      const BlockID from = blocks[u];
      blocks[u] = to;
      cache.moved(g, u, from, to);
    }
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      std::vector<Weight> conn(k, 0);
      for (NodeID v : g.neighbors(u))
        ++conn[blocks[v]];
      std::vector<Weight> listed(k, 0);
      cache.for_each(u, [&](BlockID b, Weight c) { listed[b] += c; });
      for (BlockID b = 0; b < k; ++b) {
        EXPECT_EQ(cache.conn(u, b), conn[b]) << "k=" << k << " u=" << u << " b=" << b;
        EXPECT_EQ(listed[b], conn[b]) << "k=" << k << " u=" << u << " b=" << b;
      }
    }
  }
}

TEST(MultilevelGainCache, PackedAndWideRowsMatchRecomputationWithWeights) {
  // Symmetric edge weights of 1-3 times `scale`. Packed rows hold a block below k in
  // bit_width(k - 1) bits and conn above them: at k = 2^16 a weighted degree of 2^16 or more
  // (scale 2^13, about 8 neighbours) needs the 8-byte entries. Blocks used: 0-15 and k - 1.
  CsrGraph g = ml_test::random_graph(400, 1600, 7);
  struct Case {
    BlockID k;
    Weight scale;
    bool packed;
  };
  for (const Case c : {Case{16, 1, true}, Case{BlockID{1} << 16, 1, true},
                       Case{BlockID{1} << 16, Weight{1} << 13, false}}) {
    std::vector<Weight> weights(g.num_directed_edges());
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
        const NodeID v = g.edge_target(e);
        weights[e] = c.scale * (1 + (std::min(u, v) + 2 * std::max(u, v)) % 3);
      }
    g.set_edge_weights(std::move(weights));
    ASSERT_TRUE(GainCache::supports(g));
    std::vector<BlockID> blocks(g.num_nodes());
    for (NodeID u = 0; u < g.num_nodes(); ++u)
      blocks[u] = u % 16;
    GainCache cache(g, blocks, c.k);
    EXPECT_EQ(cache.packed(), c.packed) << "k=" << c.k << " scale=" << c.scale;
    Rng rng(2);
    for (int i = 0; i < 300; ++i) {
      const auto u = static_cast<NodeID>(rng.below(g.num_nodes()));
      const BlockID to = rng.below(4) == 0 ? c.k - 1 : static_cast<BlockID>(rng.below(16));
      const BlockID from = blocks[u];
      blocks[u] = to;
      cache.moved(g, u, from, to);
    }
    std::vector<BlockID> used(16);
    for (BlockID b = 0; b < 16; ++b)
      used[b] = b;
    used.push_back(c.k - 1);
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      std::vector<Weight> conn(c.k, 0);
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
        conn[blocks[g.edge_target(e)]] += g.edge_weight(e);
      std::vector<GainCache::Entry> row; // as parallel FM's searches copy it
      cache.append_row(u, row);
      std::vector<Weight> listed(c.k, 0);
      cache.for_each(u, [&](BlockID b, Weight w) { listed[b] += w; });
      for (const BlockID b : used) {
        EXPECT_EQ(cache.conn(u, b), conn[b]) << "k=" << c.k << " u=" << u << " b=" << b;
        EXPECT_EQ(listed[b], conn[b]) << "k=" << c.k << " u=" << u << " b=" << b;
        EXPECT_EQ(GainCache::row_conn(row.data(), cache.row_size(u), b), conn[b]);
      }
    }
  }
}

TEST(MultilevelBisection, FindsTheBridgeBetweenTwoCliques) {
  // Two 20-cliques joined by one edge: the only good bisection cuts that edge.
  std::vector<std::pair<NodeID, NodeID>> edges;
  for (NodeID side = 0; side < 2; ++side)
    for (NodeID a = 0; a < 20; ++a)
      for (NodeID b = a + 1; b < 20; ++b)
        edges.emplace_back(side * 20 + a, side * 20 + b);
  edges.emplace_back(3, 27);
  const CsrGraph g = ml_test::graph_from_edges(40, edges);
  const BlockLimits limits = uniform_limits(g, 2, 0.03);
  const std::vector<BlockID> sides = initial_bisection(g, limits, 0.5, InitialContext{}, 5);
  EXPECT_EQ(edge_cut(g, sides), 1);
}

TEST(MultilevelRebalancer, RemovesOverloadOfEveryConstraint) {
  CsrGraph g = ml_test::grid_graph(20, 20);
  std::vector<Weight> weights(800);
  for (NodeID u = 0; u < 400; ++u) {
    weights[2 * u] = 1;
    weights[2 * u + 1] = u % 3 == 0 ? 1 : 0;
  }
  g.set_vertex_weights(2, std::move(weights));
  std::vector<BlockID> blocks(400, 0); // everything in block 0
  for (NodeID u = 390; u < 400; ++u)
    blocks[u] = 1 + u % 3;
  const BlockLimits limits = uniform_limits(g, 4, 0.03);
  PartitionedGraph p(g, 4, std::move(blocks));
  EXPECT_TRUE(rebalance(p, limits));
  for (BlockID b = 0; b < 4; ++b)
    for (int c = 0; c < 2; ++c)
      EXPECT_LE(p.block_weight(b, c), limits.max(b, c));
}

// A vertex with no neighbour in another block with room goes to the lightest block with room,
// the lower id among equally light ones (the rebalancer rates from a list of the blocks ordered
// by weight and id, which must pick what a scan over every block picks).
TEST(MultilevelRebalancer, VertexWithoutRoomNextToItGoesToTheLightestBlockWithRoom) {
  // Block 0: the path 0-1-2-3-4, limit 3 (2 over); block 1: 5-6-7, full, joined to vertex 4;
  // block 2: vertex 8 alone, the lightest block but full (limit 1); blocks 3 and 4: two
  // vertices each, limit 3.
  const CsrGraph g = ml_test::graph_from_edges(
      13, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {9, 10}, {11, 12}});
  BlockLimits limits = uniform_limits(g, 5, 0.0);
  for (BlockID b = 0; b < 5; ++b)
    limits.max_weight[b] = b == 2 ? 1 : 3;
  PartitionedGraph p(g, 5, {0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4});
  // The path's ends lose least (one internal edge each; block 1 has no room for vertex 4), both
  // towards block 3: of the blocks with room, 3 and 4 are the lightest, 3 the lower id. Vertex 0
  // (the lower id) goes first and fills block 3; vertex 4 then goes to block 4.
  EXPECT_TRUE(rebalance(p, limits));
  EXPECT_EQ(p.block(0), 3u);
  EXPECT_EQ(p.block(4), 4u);
  for (BlockID b = 0; b < 5; ++b)
    EXPECT_LE(p.block_weight(b), limits.max(b, 0));
  EXPECT_EQ(p.block_weight(2), 1);
}

// With a gain cache the rebalancer makes the same moves and leaves the cache describing the
// partition it made (relaxed FM's greedy pass reads it afterwards).
TEST(MultilevelRebalancer, KeepsAGivenGainCacheCurrent) {
  const CsrGraph g = ml_test::random_graph(600, 3000, 11);
  const BlockID k = 8;
  std::vector<BlockID> blocks = ml_test::round_robin(g.num_nodes(), k);
  for (NodeID u = 0; u < g.num_nodes(); u += 5)
    blocks[u] = 0; // block 0 far over its limit
  const BlockLimits limits = uniform_limits(g, k, 0.03);
  PartitionedGraph plain(g, k, blocks);
  PartitionedGraph cached(g, k, blocks);
  ASSERT_FALSE(cached.balanced(limits));
  GainCache cache(g, cached.blocks(), k);
  Weight loss_plain = 0, loss_cached = 0;
  EXPECT_TRUE(rebalance(plain, limits, &loss_plain));
  EXPECT_TRUE(rebalance(cached, limits, &loss_cached, &cache));
  EXPECT_EQ(loss_plain, loss_cached);
  ASSERT_TRUE(std::equal(plain.blocks().begin(), plain.blocks().end(), cached.blocks().begin()));
  const GainCache fresh(g, cached.blocks(), k);
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (BlockID b = 0; b < k; ++b)
      ASSERT_EQ(cache.conn(u, b), fresh.conn(u, b)) << "vertex " << u << " block " << b;
}

TEST(MultilevelPartitionedGraph, TryMoveKeepsTheLimit) {
  const CsrGraph g = ml_test::grid_graph(4, 4);
  BlockLimits limits = uniform_limits(g, 2, 0.0); // 8 per block
  limits.max_weight[0] = 9;                       // block 0 may take one more
  std::vector<BlockID> blocks(16, 0);
  for (NodeID u = 0; u < 8; ++u)
    blocks[u] = 1;
  PartitionedGraph p(g, 2, std::move(blocks));
  EXPECT_FALSE(p.try_move(10, 1, limits)); // block 1 is full
  EXPECT_EQ(p.block_weight(1), 8);
  EXPECT_TRUE(p.try_move(0, 0, limits));
  EXPECT_EQ(p.block_weight(0), 9);
  EXPECT_FALSE(p.try_move(1, 0, limits)); // now block 0 is full
  EXPECT_TRUE(p.try_move(10, 1, limits));
  EXPECT_EQ(p.block_weight(0), 8);
  EXPECT_EQ(p.block_weight(1), 8);
}

} // namespace
} // namespace gnnpart::ml
