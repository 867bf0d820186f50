// partition_column_net: the graph partitioner's start improved by V-cycles on the column-net
// hypergraph. Every result is checked from scratch (balance of the model's weights, no empty
// block, km1 by brute force and as the graph's communication volume) and compared with the
// start it came from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "core/errors.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph/multilevel.h"
#include "hypergraph_test_util.h"
#include "partition/partitioner.h"

namespace gnnpart::hg {
namespace {

using testing::check;
using testing::options;

// The graph partitioner's edge-cut partition under the model's vertex weights: the start.
Partition graph_start(const CsrGraph& graph, const Hypergraph& model, PartitionOptions o) {
  const CsrGraph weighted = graph_with_model_weights(graph, model);
  o.model = Model::kGraph;
  o.objective = Objective::kCut;
  return partition_graph_multilevel(weighted, o);
}

TEST(ColumnNetPartitioner, BalancedExactVolumeAndNoWorseThanItsStart) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  for (ColumnNetWeights weights : {ColumnNetWeights::kDegree, ColumnNetWeights::kUnit}) {
    const Hypergraph model = build_column_net(graph, weights);
    for (BlockID k : {2u, 8u, 32u}) {
      SCOPED_TRACE(k);
      const PartitionOptions o = options(k, 5);
      const Partition p = partition_column_net(graph, model, o);
      const auto m = check(model, p, o);
      EXPECT_EQ(m.km1, compute_graph_metrics(graph, p).comm_volume);
      const Partition start = graph_start(graph, model, o);
      EXPECT_LE(m.km1, testing::brute_force_metrics(model, start).km1);
    }
  }
}

TEST(ColumnNetPartitioner, DeterministicForSeedAndThreads) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph);
  for (int threads : {1, 2})
    for (BlockID k : {2u, 16u}) { // k = 2 with flows on the input level
      const Partition a = partition_column_net(graph, model, options(k, 9, threads));
      const Partition b = partition_column_net(graph, model, options(k, 9, threads));
      EXPECT_EQ(a.blocks, b.blocks);
    }
  EXPECT_NE(partition_column_net(graph, model, options(16, 9)).blocks,
            partition_column_net(graph, model, options(16, 10)).blocks);
}

// At k = 2 the edge-cut starts of HgContext::graph_start_tries seeds run side by side, each a
// graph run with threads / tries threads (one thread each with 1, 2 or 3 threads), and the one
// of lowest volume is kept, the first among equals: the partition depends on the seed and the
// thread count only, never on which try finished first.
TEST(ColumnNetPartitioner, BisectionStartTriesSameForOneToThreeThreads) {
  ASSERT_EQ(make_context(options(2)).graph_start_tries, 2);
  ASSERT_GE(make_context(options(2)).graph_start_tries_max_k, 2u);
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/pubmed.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const Partition one = partition_column_net(graph, model, options(2, 3, 1));
  check(model, one, options(2, 3, 1));
  for (int threads : {2, 3})
    EXPECT_EQ(partition_column_net(graph, model, options(2, 3, threads)).blocks, one.blocks)
        << threads << " threads";
}

// Edge {u, v} of the priced copy weighs max(1, round(32 (1 / d(u) + 1 / d(v)))); the structure
// and the vertex weights are the graph's.
TEST(ColumnNetPartitioner, Km1PricedCopyOfTheGraph) {
  // A star of centre 0 with leaves 1-4, and leaf 4 joined to 5: d = 4, 1, 1, 1, 2, 1.
  const CsrGraph graph({0, 4, 5, 6, 7, 9, 10}, {1, 2, 3, 4, 0, 0, 0, 0, 5, 4}, {}, 1,
                       {3, 1, 1, 1, 2, 1});
  const CsrGraph priced = graph_with_km1_prices(graph);
  ASSERT_EQ(priced.num_nodes(), 6u);
  EXPECT_EQ(std::vector<NodeID>(priced.adjacency().begin(), priced.adjacency().end()),
            std::vector<NodeID>(graph.adjacency().begin(), graph.adjacency().end()));
  EXPECT_EQ(std::vector<Weight>(priced.vertex_weights().begin(), priced.vertex_weights().end()),
            (std::vector<Weight>{3, 1, 1, 1, 2, 1}));
  // 32 (1/4 + 1) = 40, 32 (1/4 + 1/2) = 24, 32 (1/2 + 1) = 48.
  EXPECT_EQ(std::vector<Weight>(priced.edge_weights().begin(), priced.edge_weights().end()),
            (std::vector<Weight>{40, 40, 40, 24, 40, 40, 40, 24, 48, 48}));
  EXPECT_TRUE(is_symmetric(priced));
  // The complete graph on 130 vertices: 32 (1/129 + 1/129) rounds to 0, and an edge weighs 1.
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  for (NodeID u = 0; u < 130; ++u) {
    for (NodeID v = 0; v < 130; ++v)
      if (v != u)
        adjacency.push_back(v);
    offsets.push_back(adjacency.size());
  }
  const CsrGraph clique = graph_with_km1_prices(CsrGraph(std::move(offsets), std::move(adjacency)));
  EXPECT_TRUE(std::all_of(clique.edge_weights().begin(), clique.edge_weights().end(),
                          [](Weight w) { return w == 1; }));
  // A star of 64 leaves: 32 (1/64 + 1) = 32.5 rounds away from zero, to 33.
  std::vector<EdgeID> star_offsets{0, 64};
  std::vector<NodeID> star_adjacency;
  for (NodeID v = 1; v <= 64; ++v)
    star_adjacency.push_back(v);
  for (NodeID v = 1; v <= 64; ++v) {
    star_adjacency.push_back(0);
    star_offsets.push_back(star_adjacency.size());
  }
  const CsrGraph star =
      graph_with_km1_prices(CsrGraph(std::move(star_offsets), std::move(star_adjacency)));
  EXPECT_TRUE(std::all_of(star.edge_weights().begin(), star.edge_weights().end(),
                          [](Weight w) { return w == 33; }));
  // A random graph: every price as the formula gives it, with std::llround.
  Rng rng(derive_seed(83));
  std::vector<std::set<NodeID>> neighbours(400);
  for (int i = 0; i < 6000; ++i) {
    const auto u = static_cast<NodeID>(rng.below(400)), v = static_cast<NodeID>(rng.below(400));
    if (u != v) {
      neighbours[u].insert(v);
      neighbours[v].insert(u);
    }
  }
  std::vector<EdgeID> random_offsets{0};
  std::vector<NodeID> random_adjacency;
  for (const auto& list : neighbours) {
    random_adjacency.insert(random_adjacency.end(), list.begin(), list.end());
    random_offsets.push_back(random_adjacency.size());
  }
  const CsrGraph random(std::move(random_offsets), std::move(random_adjacency));
  const CsrGraph random_priced = graph_with_km1_prices(random);
  for (NodeID u = 0; u < random.num_nodes(); ++u)
    for (EdgeID e = random.first_edge(u); e != random.last_edge(u); ++e) {
      const double share_u = 1.0 / static_cast<double>(random.degree(u));
      const double share_v = 1.0 / static_cast<double>(random.degree(random.edge_target(e)));
      ASSERT_EQ(random_priced.edge_weight(e),
                std::max<Weight>(1, std::llround(32.0 * (share_u + share_v))));
    }
}

// At k = 2 the last start try partitions the graph priced for km1 (with the try's own seed), and
// the V-cycles start from the lower-volume try, the first among equals; where the copy would pass
// graph_start_priced_max_bytes, the try keeps unit edges.
TEST(ColumnNetPartitioner, BisectionStartTriesIncludeTheKm1PricedGraph) {
  const CsrGraph plain = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(plain, ColumnNetWeights::kUnit);
  const CsrGraph graph = graph_with_model_weights(plain, model);
  const CsrGraph priced = graph_with_km1_prices(graph);
  int priced_won = 0;
  for (std::uint64_t seed : {0u, 1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const PartitionOptions o = options(2, seed, 2);
    HgContext ctx = make_context(o);
    ASSERT_TRUE(ctx.graph_start_priced_try);
    ASSERT_EQ(ctx.graph_start_tries, 2);
    // Each try by itself: one thread (threads / tries), the second with the derived seed.
    HgContext one = ctx;
    one.graph_start_tries = 1;
    PartitionOptions first = o, second = o;
    first.threads = second.threads = 1;
    second.seed = derive_seed(seed, 0x47, 1);
    const Partition unit0 = best_graph_start(graph, first, one);
    const Partition unit1 = best_graph_start(graph, second, one);
    const Partition priced1 = best_graph_start(priced, second, one);
    const auto volume = [&](const Partition& p) {
      return compute_graph_metrics(plain, p).comm_volume;
    };
    const Partition both = best_graph_start(graph, o, ctx);
    const bool priced_wins = volume(priced1) < volume(unit0);
    EXPECT_EQ(both.blocks, (priced_wins ? priced1 : unit0).blocks);
    priced_won += priced_wins ? 1 : 0;
    ctx.graph_start_priced_max_bytes = km1_priced_copy_bytes(graph) - 1;
    EXPECT_EQ(best_graph_start(graph, o, ctx).blocks,
              (volume(unit1) < volume(unit0) ? unit1 : unit0).blocks);
  }
  EXPECT_GT(priced_won, 0); // the priced try is a start that wins somewhere
}

// Flows on a graph start: the default preset runs them at k <= graph_start_flows_max_k on the
// input level only (one round), strong on every level, fast and --flows off never.
TEST(ColumnNetPartitioner, GraphStartFlowsByPresetAndK) {
  struct Case {
    Preset preset;
    FlowRefinement flows;
    BlockID k;
    bool enabled, input_level_only;
  };
  for (const Case c : {Case{Preset::kDefault, FlowRefinement::kPreset, 2, false, false},
                       Case{Preset::kDefault, FlowRefinement::kPreset, 8, false, false},
                       Case{Preset::kDefault, FlowRefinement::kOff, 2, false, false},
                       Case{Preset::kDefault, FlowRefinement::kOn, 8, true, false},
                       Case{Preset::kStrong, FlowRefinement::kPreset, 2, true, false},
                       Case{Preset::kFast, FlowRefinement::kPreset, 2, false, false}}) {
    SCOPED_TRACE(::testing::Message()
                 << to_string(c.preset) << " flows " << to_string(c.flows) << " k " << c.k);
    PartitionOptions o = options(c.k);
    o.preset = c.preset;
    o.flows = c.flows;
    HgContext ctx = make_context(o);
    const int rounds = ctx.refinement.flows.max_rounds;
    use_graph_start_flows(ctx);
    const FlowContext& f = ctx.refinement.flows;
    EXPECT_EQ(f.enabled, c.enabled);
    EXPECT_EQ(f.input_level_only, c.input_level_only);
    EXPECT_EQ(f.max_rounds, c.input_level_only ? f.graph_start_flow_rounds : rounds);
    EXPECT_EQ(f.alpha, f.graph_start_alpha);
  }
  // With graph_start_flows_max_k = 2 (off in every preset), k = 2 runs one round of flows on
  // the input level only, and k = 8 none.
  for (const BlockID k : {2u, 8u}) {
    HgContext ctx = make_context(options(k));
    ctx.refinement.flows.graph_start_flows_max_k = 2;
    use_graph_start_flows(ctx);
    const FlowContext& f = ctx.refinement.flows;
    EXPECT_EQ(f.enabled, k == 2) << "k " << k;
    EXPECT_EQ(f.input_level_only, k == 2) << "k " << k;
    if (k == 2) {
      EXPECT_EQ(f.max_rounds, f.graph_start_flow_rounds);
    }
  }
}

// At k > 2, one round of flows on the input level where the start's km1 is at most
// graph_start_flows_max_volume_per_vertex per vertex and the net sizes are even: on a mesh's
// start (4elt k = 8 and 32, thin separators, net size skew 1.01), not on cora's (k = 32: about
// 0.6 per vertex; k = 8: about 0.3, but skew 2.14, hubs), never at k = 2, in the fast preset or
// with --flows off. km1 is the start's column-net km1 (the graph's comm volume).
TEST(ColumnNetPartitioner, GraphStartFlowsAtLargerKOnThinSeparators) {
  const CsrGraph mesh = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/4elt.edges.gz");
  const CsrGraph cora = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  struct Case {
    const CsrGraph* graph;
    BlockID k;
    Preset preset;
    FlowRefinement flows;
    bool enabled;
  };
  for (const Case c : {Case{&mesh, 8, Preset::kDefault, FlowRefinement::kPreset, true},
                       Case{&mesh, 32, Preset::kDefault, FlowRefinement::kPreset, true},
                       Case{&mesh, 2, Preset::kDefault, FlowRefinement::kPreset, false},
                       Case{&mesh, 8, Preset::kFast, FlowRefinement::kPreset, false},
                       Case{&mesh, 8, Preset::kDefault, FlowRefinement::kOff, false},
                       Case{&cora, 32, Preset::kDefault, FlowRefinement::kPreset, false},
                       Case{&cora, 8, Preset::kDefault, FlowRefinement::kPreset, false}}) {
    SCOPED_TRACE(::testing::Message() << "n " << c.graph->num_nodes() << " k " << c.k << " "
                                      << to_string(c.preset) << " flows " << to_string(c.flows));
    const Hypergraph model = build_column_net(*c.graph, ColumnNetWeights::kUnit);
    PartitionOptions o = options(c.k, 3);
    o.preset = c.preset;
    o.flows = c.flows;
    const Partition start = graph_start(*c.graph, model, o);
    const Weight km1 = compute_hypergraph_metrics(model, start).km1;
    EXPECT_EQ(net_size_skew(model) <= 2, c.graph == &mesh);
    EXPECT_EQ(km1, testing::brute_force_metrics(model, start).km1);
    EXPECT_EQ(km1, compute_graph_metrics(*c.graph, start).comm_volume);
    HgContext ctx = make_context(o);
    use_graph_start_flows(ctx, model, start.blocks);
    const FlowContext& f = ctx.refinement.flows;
    EXPECT_EQ(f.enabled, c.enabled);
    EXPECT_EQ(f.input_level_only, c.enabled);
    if (c.enabled) {
      EXPECT_EQ(f.max_rounds, f.graph_start_flow_rounds);
    }
    // The bound is read: at exactly the start's km1 per vertex flows run, just below they do not.
    if (c.enabled) {
      for (const double below : {0.0, 1e-9}) {
        HgContext at = make_context(o);
        at.refinement.flows.graph_start_flows_max_volume_per_vertex =
            static_cast<double>(km1) / static_cast<double>(model.num_nodes()) - below;
        use_graph_start_flows(at, model, start.blocks);
        EXPECT_EQ(at.refinement.flows.enabled, below == 0.0);
      }
    }
  }
  // Same seed and threads, the same partition, with those flows on.
  const Hypergraph model = build_column_net(mesh);
  for (int threads : {1, 2})
    EXPECT_EQ(partition_column_net(mesh, model, options(8, 4, threads)).blocks,
              partition_column_net(mesh, model, options(8, 4, threads)).blocks);
}

TEST(ColumnNetPartitioner, KeepsEveryConstraint) {
  const CsrGraph plain = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  // Two constraints: unit weight, and a "training set" of every seventh vertex.
  std::vector<Weight> vw(2 * static_cast<std::size_t>(plain.num_nodes()));
  for (NodeID u = 0; u < plain.num_nodes(); ++u) {
    vw[2 * u] = 1;
    vw[2 * u + 1] = u % 7 == 0 ? 1 : 0;
  }
  const auto offsets = plain.offsets();
  const auto adjacency = plain.adjacency();
  const CsrGraph graph({offsets.begin(), offsets.end()}, {adjacency.begin(), adjacency.end()}, {},
                       2, std::move(vw));
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kGraph);
  ASSERT_EQ(model.ncon(), 2);
  PartitionOptions o = options(8, 1);
  o.epsilon = 0.05;
  check(model, partition_column_net(graph, model, o), o);
}

// A start far from what the hypergraph finds (here a round-robin one) gets more V-cycles than
// the context's graph_start_vcycles, up to graph_start_max_vcycles, when the work allows it;
// with an unreachable factor, or no work allowed, exactly graph_start_vcycles run. Every result
// is balanced and below half the start's km1.
TEST(ColumnNetPartitioner, MoreVCyclesOnlyAfterALargeGain) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const PartitionOptions o = options(8, 3);
  const BlockLimits limits = uniform_limits(model, o.k, o.epsilon);
  std::vector<BlockID> start(model.num_nodes());
  for (NodeID u = 0; u < model.num_nodes(); ++u)
    start[u] = u % o.k;
  const Weight start_km1 = testing::brute_force_metrics(model, Partition{o.k, start}).km1;
  HgContext ctx = make_context(o);
  ASSERT_EQ(ctx.refinement.graph_start_vcycles, 1);
  ASSERT_GE(ctx.refinement.graph_start_max_vcycles, 2);
  const double inf = std::numeric_limits<double>::infinity();
  const double factor0 = ctx.refinement.graph_start_extra_vcycle_factor;
  for (auto [factor, max_work] : {std::pair{factor0, inf}, {inf, inf}, {factor0, 0.0}}) {
    SCOPED_TRACE(::testing::Message() << factor << " " << max_work);
    ctx.refinement.graph_start_extra_vcycle_factor = factor;
    ctx.refinement.graph_start_extra_vcycle_max_work = max_work;
    std::vector<BlockID> blocks = start;
    const int ran = run_with_threads(o.threads, [&] {
      Km1GainCache cache;
      return graph_start_vcycles(model, ctx, limits, blocks, cache);
    });
    if (std::isinf(factor) || max_work == 0)
      EXPECT_EQ(ran, 1);
    else
      EXPECT_GE(ran, 2);
    EXPECT_LE(ran, ctx.refinement.graph_start_max_vcycles);
    const auto m = check(model, Partition{o.k, blocks}, o);
    EXPECT_LT(2 * m.km1, start_km1);
  }
}

TEST(ColumnNetPartitioner, RejectsAModelOfAnotherGraph) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const CsrGraph other = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const Hypergraph model = build_column_net(other);
  EXPECT_THROW(partition_column_net(graph, model, options(4)), InvalidParameter);
}

} // namespace
} // namespace gnnpart::hg
