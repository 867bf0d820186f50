// Flow refinement: the incremental max flow against brute-force min cuts of tiny networks, and
// flow refinement of k-way partitions (never worse, limits kept, the predicted gain is the
// measured one, a bad split of two clusters repaired, deterministic).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/errors.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/flow_cutter.h"
#include "hypergraph/flow_network.h"
#include "hypergraph/flow_problem.h"
#include "hypergraph/flow_refiner.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

using testing::brute_force_metrics;

struct TestArc {
  FlowNetwork::Node from, to;
  Weight capacity, reverse_capacity;
};

// Minimum capacity of arcs leaving a node set that holds every source and no sink, over all
// such sets (n <= 12).
Weight brute_force_min_cut(FlowNetwork::Node n, const std::vector<TestArc>& arcs,
                           const std::vector<int>& terminal) {
  Weight best = -1;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    bool ok = true;
    for (FlowNetwork::Node u = 0; u < n && ok; ++u) {
      const bool in = (mask >> u) & 1;
      ok = !((terminal[u] == 1 && !in) || (terminal[u] == 2 && in));
    }
    if (!ok)
      continue;
    Weight cut = 0;
    for (const TestArc& a : arcs) {
      const bool from_in = (mask >> a.from) & 1, to_in = (mask >> a.to) & 1;
      if (from_in && !to_in)
        cut += a.capacity;
      if (to_in && !from_in)
        cut += a.reverse_capacity;
    }
    if (best < 0 || cut < best)
      best = cut;
  }
  return best;
}

// Capacity of the arcs leaving the nodes marked with `stamp`.
Weight cut_of(const std::vector<TestArc>& arcs, const std::vector<std::uint32_t>& mark,
              std::uint32_t stamp) {
  Weight cut = 0;
  for (const TestArc& a : arcs) {
    const bool from_in = mark[a.from] == stamp, to_in = mark[a.to] == stamp;
    if (from_in && !to_in)
      cut += a.capacity;
    if (to_in && !from_in)
      cut += a.reverse_capacity;
  }
  return cut;
}

// Every reached non-terminal hangs from a reached node by a usable arc of its own.
void expect_search_tree(const FlowNetwork& net, FlowNetwork::Terminal side,
                        const std::vector<std::uint32_t>& mark, std::uint32_t stamp,
                        const std::vector<FlowNetwork::Node>& reached,
                        const std::vector<FlowNetwork::Arc>& parent) {
  for (FlowNetwork::Node v : reached) {
    if (net.terminal(v) != FlowNetwork::kNone)
      continue;
    const FlowNetwork::Arc a = parent[v];
    EXPECT_TRUE(a >= net.offsets()[v] && a < net.offsets()[v + 1]);
    EXPECT_EQ(mark[net.head(a)], stamp);
    EXPECT_TRUE(net.tree_arc_usable(side, a));
  }
}

TEST(FlowNetwork, MaxFlowEqualsBruteForceMinCutAsTerminalsGrow) {
  Rng rng(42);
  FlowNetwork net;
  std::vector<std::uint32_t> mark;
  std::vector<FlowNetwork::Node> reached;
  std::vector<FlowNetwork::Arc> parent;
  for (int trial = 0; trial < 300; ++trial) {
    const FlowNetwork::Node n = 4 + static_cast<FlowNetwork::Node>(rng.below(8));
    std::vector<TestArc> arcs;
    const int m = static_cast<int>(n + rng.below(3 * n));
    for (int i = 0; i < m; ++i) {
      const auto u = static_cast<FlowNetwork::Node>(rng.below(n));
      const auto v = static_cast<FlowNetwork::Node>(rng.below(n));
      if (u == v)
        continue;
      const Weight c = static_cast<Weight>(rng.below(6));
      arcs.push_back({u, v, c, rng.coin() ? c : 0}); // undirected edge or directed arc
    }
    net.reset(n);
    for (const TestArc& a : arcs)
      net.add_arc(a.from, a.to, a.capacity, a.reverse_capacity);
    net.finalize();
    std::vector<int> terminal(n, 0);
    terminal[0] = 1;
    terminal[1] = 2;
    net.make_terminal(0, FlowNetwork::kSource);
    net.make_terminal(1, FlowNetwork::kSink);
    mark.assign(n, 0);
    parent.assign(n, 0);
    std::uint32_t stamp = 0;
    // Terminals only grow; the flow of each step continues the previous one.
    for (int step = 0; step < 3; ++step) {
      const Weight flow = net.augment(FlowNetwork::kInfinite);
      ASSERT_EQ(flow, brute_force_min_cut(n, arcs, terminal)) << "trial " << trial;
      // Both reachable sets are min cuts.
      net.reachable(FlowNetwork::kSource, mark, ++stamp, reached, parent);
      EXPECT_EQ(cut_of(arcs, mark, stamp), flow);
      expect_search_tree(net, FlowNetwork::kSource, mark, stamp, reached, parent);
      for (FlowNetwork::Node u : reached)
        EXPECT_NE(terminal[u], 2);
      net.reachable(FlowNetwork::kSink, mark, ++stamp, reached, parent);
      expect_search_tree(net, FlowNetwork::kSink, mark, stamp, reached, parent);
      std::vector<std::uint32_t> complement(n, 0);
      for (FlowNetwork::Node u = 0; u < n; ++u)
        complement[u] = mark[u] == stamp ? 0 : 1;
      EXPECT_EQ(cut_of(arcs, complement, 1), flow);
      std::vector<FlowNetwork::Node> free;
      for (FlowNetwork::Node u = 0; u < n; ++u)
        if (terminal[u] == 0)
          free.push_back(u);
      if (free.empty())
        break;
      const FlowNetwork::Node u = free[rng.below(free.size())];
      terminal[u] = rng.coin() ? 1 : 2;
      net.make_terminal(u, terminal[u] == 1 ? FlowNetwork::kSource : FlowNetwork::kSink);
    }
  }
}

TEST(FlowNetwork, StopsAtTheBoundAndRejectsSideChanges) {
  // Two parallel paths of capacity 3 and 4 from 0 to 1.
  FlowNetwork net;
  net.reset(4);
  net.add_arc(0, 2, 3);
  net.add_arc(2, 1, 3);
  net.add_arc(0, 3, 4);
  net.add_arc(3, 1, 4);
  net.finalize();
  net.make_terminal(0, FlowNetwork::kSource);
  net.make_terminal(1, FlowNetwork::kSink);
  EXPECT_EQ(net.augment(2), 2);
  EXPECT_EQ(net.augment(100), 7);
  EXPECT_THROW(net.make_terminal(0, FlowNetwork::kSink), InvalidParameter);
}

std::vector<BlockID> balanced_random_blocks(const Hypergraph& hg, BlockID k, Rng& rng);

// FlowCutter on whole-block regions of random 2-way partitions (many piercing steps, with and
// without bulk piercing): the reachable sets it keeps up incrementally equal new searches after
// every step, and a cut it returns is balanced and below the current one.
TEST(FlowCutter, IncrementalSidesMatchNewSearchesAndCutsAreBalanced) {
  int iterations = 0, found = 0;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    Rng rng(seed);
    Hypergraph hg = testing::random_hypergraph(150, 220, 4, 10, 3, 1, rng);
    std::vector<Weight> vw(hg.num_nodes());
    for (auto& w : vw)
      w = 1 + static_cast<Weight>(rng.below(3));
    hg.set_vertex_weights(1, vw);
    PartitionedHypergraph phg(hg, 2);
    phg.assign(balanced_random_blocks(hg, 2, rng));
    std::vector<NetID> cut_nets;
    for (NetID e = 0; e < hg.num_nets(); ++e)
      if (phg.connectivity(e) == 2)
        cut_nets.push_back(e);
    const BlockLimits limits = uniform_limits(hg, 2, 0.03);
    const std::vector<Weight> everything{hg.total_vertex_weight()};
    FlowProblemBuilder builder(hg);
    FlowProblem problem;
    if (!builder.build(phg, Objective::kKm1, 0, 1, cut_nets, everything, everything, {}, problem))
      continue;
    FlowCutterOptions options;
    options.check_incremental = true;
    options.bulk_piercing_fraction = seed % 2 == 0 ? 0.25 : 0.0;
    FlowCutter cutter;
    std::vector<std::uint8_t> assignment;
    bool ok = false;
    ASSERT_NO_THROW(ok = cutter.run(problem, {&limits.max_weight[0], 1}, {&limits.max_weight[1], 1}, options,
                                    seed, assignment));
    iterations += cutter.iterations();
    if (!ok)
      continue;
    ++found;
    EXPECT_LT(problem.network.flow_value(), problem.initial_cut);
    Weight side0 = problem.weight(FlowProblem::kSourceNode, 0);
    for (std::size_t i = 0; i < problem.region.size(); ++i)
      if (assignment[i] == 0)
        side0 += hg.vertex_weight(problem.region[i]);
    EXPECT_LE(side0, limits.max_weight[0]);
    EXPECT_LE(problem.total[0] - side0, limits.max_weight[1]);
  }
  EXPECT_GT(iterations, 200); // the incremental paths were taken
  EXPECT_GT(found, 10);
}

// Two clusters of `half` vertices each, many small nets inside each, `bridges` nets across.
Hypergraph two_clusters(NodeID half, int bridges, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (int side = 0; side < 2; ++side)
    for (NodeID i = 0; i < 4 * half; ++i) {
      const int size = 2 + static_cast<int>(rng.below(3));
      for (int j = 0; j < size; ++j)
        pins.push_back(side * half + static_cast<NodeID>(rng.below(half)));
      offsets.push_back(pins.size());
    }
  for (int i = 0; i < bridges; ++i) {
    pins.push_back(static_cast<NodeID>(rng.below(half)));
    pins.push_back(half + static_cast<NodeID>(rng.below(half)));
    offsets.push_back(pins.size());
  }
  return Hypergraph(2 * half, std::move(offsets), std::move(pins));
}

HgContext flow_context(BlockID k, Objective objective = Objective::kKm1) {
  HgContext ctx;
  ctx.k = k;
  ctx.objective = objective;
  ctx.refinement.flows.enabled = true;
  return ctx;
}

// A bad but balanced split of two clusters: `wrong` vertices of each on the other side. With a
// large alpha the region is both blocks whole (terminals of weight 0), so FlowCutter builds
// the sides from scratch by piercing.
void repair_two_clusters(NodeID wrong, double alpha) {
  const NodeID half = 60;
  const int bridges = 3;
  const Hypergraph hg = two_clusters(half, bridges, 7);
  std::vector<BlockID> blocks(hg.num_nodes());
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    blocks[u] = (u < half) != (u % half < wrong) ? 0 : 1;
  PartitionedHypergraph phg(hg, 2);
  phg.assign(blocks);
  const Weight before = phg.objective(Objective::kKm1);
  const BlockLimits limits = uniform_limits(hg, 2, 0.03);
  HgContext ctx = flow_context(2);
  ctx.refinement.flows.alpha = alpha;
  const FlowRefinementStats stats = flow_refine(phg, ctx, limits, 1);
  const Weight after = phg.objective(Objective::kKm1);
  EXPECT_GT(before, 10 * bridges);
  EXPECT_LE(after, bridges); // the clusters themselves (or a cut at least as good)
  EXPECT_EQ(stats.gain, before - after);
  EXPECT_EQ(stats.expected_gain, stats.gain);
  EXPECT_TRUE(is_balanced(phg, limits.max_weight));
}

TEST(FlowRefiner, RepairsABadSplitOfTwoClusters) {
  for (NodeID wrong : {2u, 4u, 12u})
    for (double alpha : {16.0, 1000.0}) {
      SCOPED_TRACE(::testing::Message() << wrong << " " << alpha);
      repair_two_clusters(wrong, alpha);
    }
}

// Vertices in random order, each into the block it loads least (largest weight / total ratio
// over the constraints): random, and balanced for every constraint.
std::vector<BlockID> balanced_random_blocks(const Hypergraph& hg, BlockID k, Rng& rng) {
  std::vector<NodeID> order(hg.num_nodes());
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    order[u] = u;
  std::shuffle(order.begin(), order.end(), rng);
  const int ncon = hg.ncon();
  std::vector<Weight> load(static_cast<std::size_t>(k) * ncon, 0);
  std::vector<BlockID> blocks(hg.num_nodes());
  for (NodeID u : order) {
    BlockID best = 0;
    double best_load = 0;
    for (BlockID b = 0; b < k; ++b) {
      double l = 0;
      for (int c = 0; c < ncon; ++c)
        l = std::max(l, static_cast<double>(load[b * ncon + c] + hg.vertex_weight(u, c)) /
                            static_cast<double>(hg.total_vertex_weight(c) + 1));
      if (b == 0 || l < best_load) {
        best = b;
        best_load = l;
      }
    }
    blocks[u] = best;
    for (int c = 0; c < ncon; ++c)
      load[best * ncon + c] += hg.vertex_weight(u, c);
  }
  return blocks;
}

struct RandomCase {
  BlockID k;
  int ncon;
  Objective objective;
};

class FlowRefinerRandom : public ::testing::TestWithParam<RandomCase> {};

// Random weighted hypergraphs and random balanced partitions: never worse, the limits hold, and
// the measured gain is what the flow problems predicted (km1) or at least positive per step.
TEST_P(FlowRefinerRandom, NeverWorseAndWithinLimits) {
  const RandomCase param = GetParam();
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    Rng rng(seed);
    Hypergraph hg = testing::random_hypergraph(300, 500, 4, 30, 3, 1, rng);
    std::vector<Weight> vw(static_cast<std::size_t>(hg.num_nodes()) * param.ncon);
    for (NodeID u = 0; u < hg.num_nodes(); ++u)
      for (int c = 0; c < param.ncon; ++c)
        vw[static_cast<std::size_t>(u) * param.ncon + c] =
            c == 0 ? 1 + static_cast<Weight>(rng.below(4)) : static_cast<Weight>(rng.below(2));
    hg.set_vertex_weights(param.ncon, std::move(vw));
    const BlockLimits limits = uniform_limits(hg, param.k, 0.05);
    PartitionedHypergraph phg(hg, param.k);
    phg.assign(balanced_random_blocks(hg, param.k, rng));
    const HgContext ctx = flow_context(param.k, param.objective);
    ASSERT_TRUE(is_balanced(phg, limits.max_weight));
    const Weight before = phg.objective(param.objective);
    const FlowRefinementStats stats = flow_refine(phg, ctx, limits, seed);
    const Weight after = phg.objective(param.objective);
    EXPECT_EQ(stats.gain, before - after);
    EXPECT_GE(stats.gain, 0);
    EXPECT_EQ(stats.expected_gain, stats.gain);
    EXPECT_GT(stats.problems, 0);
    EXPECT_TRUE(is_balanced(phg, limits.max_weight));
    // The pin counts behind these checks agree with a recomputation from scratch.
    const Partition p{param.k, {phg.blocks().begin(), phg.blocks().end()}};
    const auto m = brute_force_metrics(hg, p);
    EXPECT_EQ(after, param.objective == Objective::kCut    ? m.cut
                     : param.objective == Objective::kSoed ? m.soed
                                                           : m.km1);
    if (param.objective == Objective::kKm1 && param.ncon == 1 && seed == 0) {
      EXPECT_GT(stats.gain, 0); // a random partition leaves plenty to gain
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, FlowRefinerRandom,
                         ::testing::Values(RandomCase{2, 1, Objective::kKm1},
                                           RandomCase{5, 1, Objective::kKm1},
                                           RandomCase{4, 2, Objective::kKm1},
                                           RandomCase{4, 1, Objective::kCut},
                                           RandomCase{3, 1, Objective::kSoed}));

// Pairs of a batch are solved in parallel, but the batches come from the seed alone: the same
// partition for 1, 2 and 4 threads (and twice with 4).
TEST(FlowRefiner, DeterministicForAnyThreadCount) {
  Rng rng(5);
  const Hypergraph hg = testing::random_hypergraph(400, 700, 4, 20, 2, 1, rng);
  const BlockLimits limits = uniform_limits(hg, 6, 0.03);
  std::vector<BlockID> start(hg.num_nodes());
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    start[u] = u % 6;
  std::vector<BlockID> result[4];
  const int threads[4] = {1, 2, 4, 4};
  for (int i = 0; i < 4; ++i) {
    run_with_threads(threads[i], [&] {
      PartitionedHypergraph phg(hg, 6);
      phg.assign(start);
      flow_refine(phg, flow_context(6), limits, 9);
      result[i].assign(phg.blocks().begin(), phg.blocks().end());
    });
  }
  for (int i = 1; i < 4; ++i)
    EXPECT_EQ(result[i], result[0]) << threads[i] << " threads";
  EXPECT_NE(result[0], start);
}

TEST(FlowRefiner, PartitionerWithFlowsIsValidAndDeterministic) {
  Rng rng(11);
  const Hypergraph hg = testing::random_hypergraph(1500, 2500, 4, 12, 2, 1, rng);
  for (int threads : {1, 2}) {
    PartitionOptions o = testing::options(4, 1, threads);
    o.flows = FlowRefinement::kOn;
    const Partition with = partition_hypergraph(hg, o);
    testing::check(hg, with, o);
    EXPECT_EQ(partition_hypergraph(hg, o).blocks, with.blocks);
    o.flows = FlowRefinement::kOff;
    EXPECT_NE(partition_hypergraph(hg, o).blocks, with.blocks); // the flows did something
  }
}

// The column-net path (graph partitioner start, a V-cycle with flows at graph_start_alpha):
// balanced, km1 equal to the graph's communication volume, deterministic.
TEST(FlowRefiner, ColumnNetPathWithFlows) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph);
  PartitionOptions o = testing::options(8, 2, 1);
  o.flows = FlowRefinement::kOn;
  const Partition p = partition_column_net(graph, model, o);
  const auto m = testing::check(model, p, o);
  EXPECT_EQ(m.km1, compute_graph_metrics(graph, p).comm_volume);
  EXPECT_EQ(partition_column_net(graph, model, o).blocks, p.blocks);
}

} // namespace
} // namespace gnnpart::hg
