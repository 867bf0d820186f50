// Moves of vertex groups for the bottleneck refiner: a group's priced change against send and
// receive volumes recomputed by brute force (and lib/cost's traffic of the graph), and the
// clusters of move_unit_levels (every vertex in one unit per level, units inside one block,
// nested, within the weight limit, the same for any thread count). The refiner with and without
// the cluster levels: the bound, the budget and the balance, each checked from the graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bottleneck_test_util.h"
#include "core/block_limits.h"
#include "core/parallel.h"
#include "core/partition.h"
#include "core/random.h"
#include "cost/block_traffic.h"
#include "hypergraph/block_volumes.h"
#include "hypergraph/bottleneck_refiner.h"
#include "hypergraph/context.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph/move_units.h"
#include "hypergraph/multilevel_start.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph_test_util.h"
#include "io/graph_io.h"

namespace gnnpart::hg {
namespace {

std::vector<NodeID> identity_owners(const Hypergraph& model) {
  std::vector<NodeID> owners(model.num_nets());
  std::iota(owners.begin(), owners.end(), NodeID{0});
  return owners;
}

// A random group of up to `size` vertices of u's block: u and vertices reached over its nets.
std::vector<NodeID> random_group(const PartitionedHypergraph& phg, NodeID u, std::size_t size,
                                 Rng& rng) {
  const Hypergraph& hg = phg.hypergraph();
  std::vector<NodeID> group{u};
  for (std::size_t tries = 0; tries < 4 * size && group.size() < size; ++tries) {
    const NodeID from = group[rng.below(group.size())];
    const auto nets = hg.incident_nets(from);
    if (nets.empty())
      continue;
    const auto pins = hg.pins(nets[rng.below(nets.size())]);
    const NodeID v = pins[rng.below(pins.size())];
    if (phg.block(v) == phg.block(u) && std::find(group.begin(), group.end(), v) == group.end())
      group.push_back(v);
  }
  std::sort(group.begin(), group.end());
  return group;
}

TEST(BlockVolumes, GroupMovesByBruteForce) {
  const Hypergraph hg = tiny_owned_hypergraph();
  const std::vector<NodeID>& owners = kTinyOwners;
  PartitionedHypergraph phg(hg, 3);
  phg.assign(std::vector<BlockID>{0, 0, 0, 1, 1, 2});
  BlockVolumes volumes(phg, owners);
  Rng rng(5);
  MoveDelta delta;
  std::vector<NetID> scratch;
  int moved_pairs = 0;
  for (int step = 0; step < 300; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(6));
    const BlockID to = static_cast<BlockID>(rng.below(3));
    if (to == phg.block(u))
      continue;
    const std::vector<NodeID> group = random_group(phg, u, 3, rng);
    moved_pairs += group.size() > 1;
    BlockVolumes::group_nets(hg, group, scratch);
    volumes.delta(phg, group, scratch, to, delta);
    EXPECT_EQ(delta.count, group.size());
    const Weight total_before = volumes.total();
    volumes.apply(delta);
    for (const NodeID v : group)
      phg.move(v, to, Objective::kKm1);
    EXPECT_EQ(volumes.total(), total_before + delta.total);
    expect_tracked(volumes, brute_force(hg, owners, phg.blocks(), 3));
  }
  EXPECT_GT(moved_pairs, 20);
}

// Every block's volume change and the total's, priced for every target at once
// (price_all_targets + volume_change_to), against volumes recomputed by brute force with the unit
// moved; single vertices and groups, weighted nets with chosen owners (tiny) and cora's column-net
// model; after each unit, a random move is taken.
void expect_volume_changes_by_brute_force(const Hypergraph& hg, std::span<const NodeID> owners,
                                          std::span<const BlockID> blocks, BlockID k,
                                          std::size_t group_size, int steps, std::uint64_t seed) {
  PartitionedHypergraph phg(hg, k);
  phg.assign(blocks);
  BlockVolumes volumes(phg, owners);
  Rng rng(seed);
  MoveDelta delta;
  std::vector<NetID> scratch;
  std::vector<UnitNet> nets;
  VolumeChange each;
  AllTargets all;
  int compared = 0;
  for (int step = 0; step < steps; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(hg.num_nodes()));
    const std::vector<NodeID> group = random_group(phg, u, group_size, rng);
    const BlockID from = phg.block(u);
    if (group.size() == 1)
      volumes.unit_nets(hg, u, nets);
    else
      volumes.unit_nets(hg, group, scratch, nets);
    volumes.price_all_targets(phg, nets, from, all);
    BlockVolumes::group_nets(hg, group, scratch);
    const Volumes before = brute_force(hg, owners, phg.blocks(), k);
    for (BlockID to = 0; to < k; ++to) {
      if (to == from)
        continue;
      std::vector<BlockID> moved(phg.blocks().begin(), phg.blocks().end());
      for (const NodeID v : group)
        moved[v] = to;
      const Volumes after = brute_force(hg, owners, moved, k);
      BlockVolumes::volume_change_to(all, to, each);
      // A block the nets touch is a target; the others are priced too (rebalancing's fallback).
      const bool touched = std::any_of(
          nets.begin(), nets.end(), [&](const UnitNet& n) { return phg.pin_count(n.net, to) > 0; });
      EXPECT_EQ(std::binary_search(all.targets.begin(), all.targets.end(), to), touched);
      EXPECT_EQ(each.total, after.total - before.total);
      for (BlockID b = 0; b < k; ++b) {
        const Weight expected = after.send[b] + after.recv[b] - before.send[b] - before.recv[b];
        EXPECT_EQ(each.by_block[b], expected) << "block " << b << ", to " << to;
        if (expected != 0) {
          EXPECT_TRUE(std::find(each.blocks.begin(), each.blocks.end(), b) != each.blocks.end());
        }
      }
      ++compared;
    }
    const BlockID to = static_cast<BlockID>(rng.below(k));
    if (to == from)
      continue;
    volumes.delta(phg, group, scratch, to, delta);
    volumes.apply(delta);
    for (const NodeID v : group)
      phg.move(v, to, Objective::kKm1);
  }
  EXPECT_GT(compared, 0);
}

TEST(BlockVolumes, VolumeChangesForEveryTargetByBruteForce) {
  const Hypergraph hg = tiny_owned_hypergraph();
  for (const std::size_t size : {1, 3})
    expect_volume_changes_by_brute_force(hg, kTinyOwners, std::vector<BlockID>{0, 0, 0, 1, 1, 2}, 3,
                                         size, 200, 7);
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const BlockID k = 6;
  std::vector<BlockID> blocks(graph.num_nodes());
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    blocks[u] = static_cast<BlockID>((u / 64) % k);
  for (const std::size_t size : {1, 6})
    expect_volume_changes_by_brute_force(model, identity_owners(model), blocks, k, size, 40, 3);
}

// Groups on cora's column-net model: the traffic priced before the move and tracked after it
// equal lib/cost's, which reads the graph.
TEST(BlockVolumes, GroupMovesMatchTheGraphsTraffic) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const BlockID k = 5;
  const std::vector<NodeID> owners = identity_owners(model);
  Rng rng(11);
  std::vector<BlockID> blocks(graph.num_nodes());
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    blocks[u] = static_cast<BlockID>((u / 64) % k); // runs of ids: groups share blocks
  PartitionedHypergraph phg(model, k);
  phg.assign(blocks);
  BlockVolumes volumes(phg, owners);
  MoveDelta delta;
  BlockVolumes::TrafficScratch traffic;
  std::vector<NetID> scratch;
  for (int step = 0; step < 200; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(graph.num_nodes()));
    const BlockID to = static_cast<BlockID>(rng.below(k));
    if (to == phg.block(u))
      continue;
    const std::vector<NodeID> group = random_group(phg, u, 6, rng);
    BlockVolumes::group_nets(model, group, scratch);
    volumes.delta(phg, group, scratch, to, delta);
    const std::vector<cost::BlockTraffic> priced = volumes.traffic_after(delta, traffic);
    volumes.apply(delta);
    for (const NodeID v : group)
      phg.move(v, to, Objective::kKm1);
    if (step % 25 != 0)
      continue;
    const Partition p{k, std::vector<BlockID>(phg.blocks().begin(), phg.blocks().end())};
    const std::vector<cost::BlockTraffic> expected = cost::block_traffic(graph, p);
    for (BlockID b = 0; b < k; ++b) {
      EXPECT_EQ(priced[b].rows, expected[b].rows);
      EXPECT_EQ(priced[b].local_nnz, expected[b].local_nnz);
      EXPECT_EQ(priced[b].halo_nnz, expected[b].halo_nnz);
      EXPECT_EQ(priced[b].send_rows, expected[b].send_rows);
      EXPECT_EQ(priced[b].recv_rows, expected[b].recv_rows);
      EXPECT_EQ(priced[b].send_messages, expected[b].send_messages);
      EXPECT_EQ(priced[b].recv_messages, expected[b].recv_messages);
    }
    expect_tracked(volumes, graph_volumes(graph, phg.blocks(), k));
  }
}

TEST(MoveUnits, NestedClustersInsideBlocks) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const Hypergraph model = build_column_net(graph);
  const BlockID k = 8;
  const PartitionOptions o = testing::options(k, 4, 2);
  const Partition start = partition_column_net(graph, model, o);
  const HgContext ctx = make_context(o);
  const BlockLimits limits = uniform_limits(model, k, o.epsilon);
  PartitionedHypergraph phg(model, k);
  phg.assign(start.blocks);
  auto levels_at = [&](int threads) {
    return run_with_threads(threads,
                            [&] { return move_unit_levels(phg, ctx, limits.max_weight, 3, 9); });
  };
  const std::vector<MoveUnits> levels = levels_at(2);
  ASSERT_EQ(levels.size(), 3u);
  const Weight heaviest =
      std::max<Weight>(1, limits.max(0, 0) / ctx.bottleneck.unit_weight_divisor);
  std::vector<NodeID> coarser_unit; // per vertex, its unit on the coarser level
  for (std::size_t level = 0; level < levels.size(); ++level) {
    const MoveUnits& units = levels[level];
    std::vector<NodeID> unit_of(graph.num_nodes(), kInvalidNodeID);
    bool grouped = false;
    for (NodeID i = 0; i < units.size(); ++i) {
      const auto members = units.unit(i);
      ASSERT_FALSE(members.empty());
      EXPECT_TRUE(std::is_sorted(members.begin(), members.end()));
      grouped |= members.size() > 1;
      Weight weight = 0;
      for (const NodeID v : members) {
        EXPECT_EQ(unit_of[v], kInvalidNodeID) << "vertex " << v << " in two units";
        unit_of[v] = i;
        EXPECT_EQ(start.blocks[v], start.blocks[members.front()]);
        weight += model.vertex_weight(v);
        if (!coarser_unit.empty()) { // a finer unit lies inside one coarser unit
          EXPECT_EQ(coarser_unit[v], coarser_unit[members.front()]);
        }
      }
      if (members.size() > 1) {
        EXPECT_LE(weight, heaviest);
      }
    }
    EXPECT_TRUE(grouped);
    EXPECT_EQ(std::count(unit_of.begin(), unit_of.end(), kInvalidNodeID), 0);
    if (level > 0) {
      EXPECT_GT(units.size(), levels[level - 1].size()); // finer: more units
    }
    coarser_unit = unit_of;
  }
  const std::vector<MoveUnits> again = levels_at(1);
  ASSERT_EQ(again.size(), levels.size());
  for (std::size_t level = 0; level < levels.size(); ++level) {
    EXPECT_EQ(again[level].offsets, levels[level].offsets);
    EXPECT_EQ(again[level].members, levels[level].members);
  }
}

// One km1 start of a shared graph (cora unless named) for the refiner's runs, and checks of a
// result from the graph.
struct CoraStart {
  explicit CoraStart(BlockID k_, const std::string& name = "cora")
      : k(k_), graph(testing::read_edges_gz(std::string(GNNPART_SHARED_DIR "/datasets/") + name +
                                            ".edges.gz")),
        model(build_column_net(graph)), options(testing::options(k, 1, 2)),
        start(partition_column_net(graph, model, options)),
        limits(uniform_limits(model, k, options.epsilon)), owners(identity_owners(model)),
        before(graph_volumes(graph, start.blocks, k)) {
    options.objective = Objective::kMaxVolume;
  }

  // The refiner from the start with `ctx`; the partition it leaves.
  std::vector<BlockID> refine(const HgContext& ctx, int threads, BottleneckStats& stats) const {
    PartitionedHypergraph phg(model, k);
    phg.assign(start.blocks);
    stats = run_with_threads(threads,
                             [&] { return bottleneck_refine(phg, owners, ctx, limits, nullptr); });
    return std::vector<BlockID>(phg.blocks().begin(), phg.blocks().end());
  }

  // The same with the defaults' bottleneck settings changed by tune(BottleneckContext&).
  template <typename Tune>
  std::vector<BlockID> refine_tuned(Tune&& tune, int threads, BottleneckStats& stats) const {
    HgContext ctx = make_context(options);
    tune(ctx.bottleneck);
    return refine(ctx, threads, stats);
  }

  // refine_tuned at 2 threads, checked to give the same partition and work at 1 thread.
  template <typename Tune>
  std::vector<BlockID> refine_deterministic(Tune&& tune, BottleneckStats& stats) const {
    std::vector<BlockID> blocks = refine_tuned(tune, 2, stats);
    BottleneckStats again;
    EXPECT_EQ(refine_tuned(tune, 1, again), blocks);
    EXPECT_EQ(again.work, stats.work);
    return blocks;
  }

  // refine_tuned(first) at 2 threads and refine_deterministic(second), both checked; their
  // partitions.
  template <typename First, typename Second>
  std::pair<std::vector<BlockID>, std::vector<BlockID>>
  refine_both(First&& first, Second&& second, BottleneckStats& a, BottleneckStats& b) const {
    std::vector<BlockID> one = refine_tuned(first, 2, a);
    std::vector<BlockID> two = refine_deterministic(second, b);
    check(one, a);
    check(two, b);
    return {std::move(one), std::move(two)};
  }

  // The stats (every block's tracked volumes too) against the graph, the budget against the
  // start, balance and no empty block.
  void check(const std::vector<BlockID>& blocks, const BottleneckStats& stats) const {
    const Volumes after = graph_volumes(graph, blocks, k);
    EXPECT_EQ(stats.send, after.send);
    EXPECT_EQ(stats.recv, after.recv);
    EXPECT_EQ(stats.max_volume, after.max());
    EXPECT_EQ(stats.total, after.total);
    EXPECT_EQ(stats.start_max_volume, before.max());
    EXPECT_LE(static_cast<double>(after.total), 1.05 * static_cast<double>(before.total));
    PartitionedHypergraph phg(model, k);
    phg.assign(blocks);
    for (BlockID b = 0; b < k; ++b) {
      EXPECT_LE(phg.block_weight(b), limits.max(b, 0));
      EXPECT_GT(phg.block_weight(b), 0);
    }
  }

  BlockID k;
  CsrGraph graph;
  Hypergraph model;
  PartitionOptions options;
  Partition start;
  BlockLimits limits;
  std::vector<NodeID> owners;
  Volumes before;
};

// The refiner with the cluster levels and with single vertices only, from one km1 start.
TEST(BottleneckRefiner, ClusterLevelsKeepBoundBudgetAndBalance) {
  const CoraStart cora(8);
  for (const int unit_levels : {0, 3}) {
    SCOPED_TRACE(unit_levels);
    HgContext ctx = make_context(cora.options);
    ctx.bottleneck.unit_levels = unit_levels;
    BottleneckStats stats;
    const std::vector<BlockID> blocks = cora.refine(ctx, 2, stats);
    cora.check(blocks, stats);
    EXPECT_LT(stats.max_volume, cora.before.max());
  }
}

// V-cycles: the first cycle is the one-cycle refiner; later ones never raise the maximum nor
// break the budget and balance, run only while the last one improved, and give the same
// partition at 1 and 2 threads.
TEST(BottleneckRefiner, CyclesNeverRaiseTheMaximum) {
  const CoraStart cora(32);
  auto cycles = [](int n) {
    return [n](BottleneckContext& b) {
      b.cycles = n;
      b.km1_vcycles = 0;
      b.multilevel_start = false; // the km1 start alone
      b.degree_start_epsilon = 0;
      b.degree_graph_epsilons.clear();
      b.volume_bisection_epsilons.clear();
    };
  };
  BottleneckStats one;
  BottleneckStats four;
  const std::vector<BlockID> single = cora.refine_tuned(cycles(1), 2, one);
  const std::vector<BlockID> blocks = cora.refine_deterministic(cycles(4), four);
  EXPECT_EQ(one.cycles, 1);
  EXPECT_GE(four.cycles, 1);
  EXPECT_LE(four.cycles, 4);
  // A second cycle runs exactly when the first lowered the maximum by cycle_min_gain of it.
  const double min_gain = make_context(cora.options).bottleneck.cycle_min_gain;
  EXPECT_GT(min_gain, 0);
  EXPECT_EQ(four.cycles > 1, static_cast<double>(one.max_volume) <=
                                 (1 - min_gain) * static_cast<double>(one.start_max_volume));
  cora.check(single, one);
  cora.check(blocks, four);
  EXPECT_LE(four.max_volume, one.max_volume);
}

// The work budget: a bounded run prices fewer nets than an unbounded one, keeps the bound,
// the budget and the balance (checked from the graph), and gives the same partition at 1 and
// 2 threads (the work is counted the same way at any thread count).
TEST(BottleneckRefiner, WorkBudgetBoundsThePricing) {
  const CoraStart cora(32);
  auto budget = [](double work) {
    return [work](BottleneckContext& b) {
      b.work_budget = work;
      b.cycles = 1;
      b.km1_vcycles = 0;
      b.multilevel_start = false; // the km1 start alone
      b.degree_start_epsilon = 0;
      b.degree_graph_epsilons.clear();
      b.volume_bisection_epsilons.clear();
    };
  };
  BottleneckStats unbounded;
  BottleneckStats bounded;
  cora.refine_both(budget(0), budget(0.5), unbounded, bounded);
  EXPECT_LT(bounded.work, unbounded.work);
  EXPECT_GT(bounded.work, 0U);
}

// Restarts (a km1 V-cycle from the refiner's result, then the refiner again within the km1
// start's budget): the result is never worse than the run without them (the same first run,
// the better one kept), the stats match the graph, the budget and balance hold against the
// km1 start, and the partition is the same at 1 and 2 threads. Restarts stop after the first
// that finds nothing better: a second runs only when the first improved.
TEST(BottleneckRefiner, Km1RestartsKeepTheBestWithinTheBudget) {
  for (const BlockID k : {8U, 32U}) {
    SCOPED_TRACE(k);
    const CoraStart cora(k);
    auto restarts = [](int n) {
      return [n](BottleneckContext& b) {
        b.km1_vcycles = n;
        b.multilevel_start = false; // the km1 start's chain alone
        b.degree_start_epsilon = 0;
        b.degree_graph_epsilons.clear();
        b.volume_bisection_epsilons.clear();
      };
    };
    BottleneckStats none;
    BottleneckStats two;
    const auto [without, with] = cora.refine_both(restarts(0), restarts(2), none, two);
    EXPECT_EQ(none.restarts, 0);
    EXPECT_GE(two.restarts, 1);
    EXPECT_LE(two.restarts, 2);
    if (two.restarts == 1) {
      EXPECT_EQ(with, without) << "a restart without gain ended them, with the result before it";
    }
    EXPECT_GT(two.cycles, none.cycles);
    EXPECT_GT(two.work, none.work);
    EXPECT_LE(two.max_volume, none.max_volume);
    if (two.max_volume == none.max_volume)
      EXPECT_LE(two.total, none.total);
    else
      EXPECT_NE(with, without);
  }
}

// The refiner's tracked per-block send and receive volumes equal those recomputed from the
// partition it wrote (write_partition, read back, every row's other blocks counted on the graph):
// cora and citeseer at k = 8 and 32, after 1 and 4 cycles, without restarts and with 2 (whose
// result may be an earlier state kept as the best). (A group move that split a cluster once left
// the tracker 10 below the written partition on citeseer; the stats' maximum and total alone did
// not show it.)
TEST(BottleneckRefiner, TrackedVolumesMatchTheWrittenPartition) {
  struct Setting {
    int cycles, restarts;
  };
  const std::string path = ::testing::TempDir() + "gnnpart_bottleneck_tracked.part";
  for (const char* name : {"cora", "citeseer"}) {
    for (const BlockID k : {8U, 32U}) {
      const CoraStart start(k, name);
      for (const Setting setting : {Setting{1, 0}, Setting{4, 0}, Setting{1, 2}, Setting{4, 2}}) {
        SCOPED_TRACE(::testing::Message() << name << " k " << k << " cycles " << setting.cycles
                                          << " restarts " << setting.restarts);
        BottleneckStats stats;
        const std::vector<BlockID> blocks = start.refine_tuned(
            [&](BottleneckContext& b) {
              b.cycles = setting.cycles;
              b.km1_vcycles = setting.restarts;
            },
            2, stats);
        io::write_partition(Partition{k, blocks}, path);
        const Partition written = io::read_partition(path, start.graph.num_nodes(), k);
        ASSERT_EQ(written.blocks, blocks);
        start.check(written.blocks, stats); // every block's tracked volumes recomputed
      }
    }
  }
  std::remove(path.c_str());
}

// Further starts (multilevel_start.h): the engine's own multilevel run, and the same under a
// degree constraint, each refined and restarted within the km1 start's budget. On cora at k = 8
// and 32 and citeseer at k = 8: the result never worse than the km1 start's chain alone (a lower
// maximum, or the same with a total no larger), the stats and every block's volumes against the
// graph, the budget against the km1 start, balance, the starts counted, the same partition when
// run again.
TEST(BottleneckRefiner, MultilevelStartsKeepTheBestWithinTheBudget) {
  for (const auto& [name, k] :
       {std::pair{"cora", 8U}, std::pair{"cora", 32U}, std::pair{"citeseer", 8U}}) {
    SCOPED_TRACE(::testing::Message() << name << " k = " << k);
    const CoraStart start(k, name);
    auto starts = [](bool multilevel, double degree_epsilon) {
      return [=](BottleneckContext& b) {
        b.multilevel_start = multilevel;
        b.degree_start_epsilon = degree_epsilon;
        b.degree_graph_epsilons.clear(); // tested below
        b.volume_bisection_epsilons.clear();
      };
    };
    BottleneckStats alone;
    BottleneckStats more;
    const std::vector<BlockID> without = start.refine_tuned(starts(false, 0), 2, alone);
    const std::vector<BlockID> with = start.refine_tuned(starts(true, 0.1), 2, more);
    start.check(without, alone);
    start.check(with, more);
    BottleneckStats again;
    EXPECT_EQ(start.refine_tuned(starts(true, 0.1), 2, again), with);
    EXPECT_EQ(again.work, more.work);
    EXPECT_EQ(alone.starts, 1);
    EXPECT_GE(more.starts, 1);
    EXPECT_LE(more.starts, 3);
    if (more.starts > 1) {
      EXPECT_GT(more.work, alone.work);
    }
    EXPECT_LE(more.max_volume, alone.max_volume);
    if (more.max_volume == alone.max_volume) {
      EXPECT_LE(more.total, alone.total);
    }
  }
}

// The degree-balanced run: every block within the first constraint's limit and its degree sum
// within max_block_weight(pins, k, epsilon), both counted from the hypergraph; with epsilon 0.02
// the km1 start of cora at k = 8 is over that degree bound (so the constraint shapes the run; at
// 0.1 it is not: 1707 against 1823).
// multilevel_start from it: balanced under the first constraint alone, no empty block.
TEST(BottleneckRefiner, DegreeBalancedPartitionKeepsBothConstraints) {
  const CoraStart start(8);
  HgContext ctx = make_context(start.options);
  ctx.objective = Objective::kKm1;
  const double epsilon = 0.02;
  const Weight degree_max =
      max_block_weight(static_cast<Weight>(start.model.num_pins()), 8, epsilon);
  auto degree_sums = [&](std::span<const BlockID> blocks) {
    std::vector<Weight> degrees(8, 0), rows(8, 0);
    for (NodeID u = 0; u < start.model.num_nodes(); ++u) {
      degrees[blocks[u]] += start.model.incident_nets(u).size();
      rows[blocks[u]] += 1;
    }
    return std::pair{degrees, rows};
  };
  const std::vector<BlockID> two = run_with_threads(
      2, [&] { return degree_balanced_partition(start.model, ctx, start.limits, epsilon, 7); });
  ASSERT_EQ(two.size(), start.model.num_nodes());
  const auto [degrees, rows] = degree_sums(two);
  for (BlockID b = 0; b < 8; ++b) {
    EXPECT_LE(degrees[b], degree_max) << "block " << b;
    EXPECT_LE(rows[b], start.limits.max(b, 0)) << "block " << b;
  }
  const auto [km1_degrees, km1_rows] = degree_sums(start.start.blocks);
  EXPECT_GT(*std::max_element(km1_degrees.begin(), km1_degrees.end()), degree_max);
  const std::vector<BlockID> blocks = run_with_threads(
      2, [&] { return multilevel_start(start.model, ctx, start.limits, epsilon, 7); });
  ASSERT_EQ(blocks.size(), start.model.num_nodes());
  const auto [after_degrees, after_rows] = degree_sums(blocks);
  for (BlockID b = 0; b < 8; ++b) {
    EXPECT_LE(after_rows[b], start.limits.max(b, 0)) << "block " << b;
    EXPECT_GT(after_rows[b], 0) << "block " << b;
  }
}

// The degree-balanced graph start's partition (before its V-cycles): every block within the
// vertex limit and its sum of degree + degree_offset within the graph engine's bound on that
// constraint, both counted from the hypergraph; degree_offset as its header says; with an
// imbalance of 0.04 the km1 start of cora at k = 8 is over that bound (the constraint shapes
// the partition). degree_graph_start from it: balanced under the first constraint alone, no
// empty block, the same partition at 1 and 2 threads.
TEST(BottleneckRefiner, DegreeGraphPartitionKeepsBothConstraints) {
  const CoraStart start(8);
  HgContext ctx = make_context(start.options);
  ctx.objective = Objective::kKm1;
  const double degree_epsilon = 0.04;
  const Weight offset = degree_offset(start.model, ctx.epsilon, degree_epsilon);
  const double average = static_cast<double>(start.model.num_pins()) / start.model.num_nodes();
  EXPECT_EQ(offset, std::lround((degree_epsilon / ctx.epsilon - 1) * average));
  EXPECT_EQ(degree_offset(start.model, ctx.epsilon, ctx.epsilon), 0);
  auto sums = [&](std::span<const BlockID> blocks) {
    std::vector<Weight> degrees(8, 0), rows(8, 0);
    for (NodeID u = 0; u < start.model.num_nodes(); ++u) {
      degrees[blocks[u]] += static_cast<Weight>(start.model.incident_nets(u).size()) + offset;
      rows[blocks[u]] += 1;
    }
    return std::pair{degrees, rows};
  };
  const Weight degree_max = max_block_weight(static_cast<Weight>(start.model.num_pins()) +
                                                 offset * start.model.num_nodes(),
                                             8, ctx.epsilon);
  const std::vector<BlockID> two = run_with_threads(2, [&] {
    return degree_balanced_graph_partition(start.model, ctx, start.limits, degree_epsilon, 7);
  });
  ASSERT_EQ(two.size(), start.model.num_nodes());
  const auto [degrees, rows] = sums(two);
  for (BlockID b = 0; b < 8; ++b) {
    EXPECT_LE(degrees[b], degree_max) << "block " << b;
    EXPECT_LE(rows[b], start.limits.max(b, 0)) << "block " << b;
  }
  const auto [km1_degrees, km1_rows] = sums(start.start.blocks);
  EXPECT_GT(*std::max_element(km1_degrees.begin(), km1_degrees.end()), degree_max);
  auto graph_start = [&](int threads) {
    return run_with_threads(threads, [&] {
      return degree_graph_start(start.model, ctx, start.limits, degree_epsilon, 7);
    });
  };
  const std::vector<BlockID> blocks = graph_start(2);
  ASSERT_EQ(blocks.size(), start.model.num_nodes());
  EXPECT_EQ(graph_start(1), blocks);
  const auto [after_degrees, after_rows] = sums(blocks);
  for (BlockID b = 0; b < 8; ++b) {
    EXPECT_LE(after_rows[b], start.limits.max(b, 0)) << "block " << b;
    EXPECT_GT(after_rows[b], 0) << "block " << b;
  }
}

// The degree-balanced graph start's chain after the km1 start's: on cora at k = 8 and 32 and
// citeseer at k = 8, the result never worse than the km1 start's chain alone (a lower maximum,
// or the same with a total no larger), the stats and every block's volumes against the graph,
// the budget against the km1 start, balance, at most one further start counted, the same
// partition and work at 1 and 2 threads. On cora k = 8 the start fits the budget and lowers the
// maximum (docs/hypergraph.md: 214 against 228).
TEST(BottleneckRefiner, DegreeGraphStartKeepsTheBestWithinTheBudget) {
  for (const auto& [name, k] :
       {std::pair{"cora", 8U}, std::pair{"cora", 32U}, std::pair{"citeseer", 8U}}) {
    SCOPED_TRACE(::testing::Message() << name << " k = " << k);
    const CoraStart start(k, name);
    auto starts = [](bool degree_graph) {
      return [=](BottleneckContext& b) {
        b.multilevel_start = false;
        b.degree_start_epsilon = 0;
        b.volume_bisection_epsilons.clear(); // VolumeBisectionStartKeepsTheBestWithinTheBudget
        if (!degree_graph)
          b.degree_graph_epsilons.clear();
      };
    };
    BottleneckStats alone;
    BottleneckStats more;
    const auto [without, with] = start.refine_both(starts(false), starts(true), alone, more);
    EXPECT_EQ(alone.starts, 1);
    EXPECT_GE(more.starts, 1);
    EXPECT_LE(more.starts, 2);
    if (more.starts > 1) {
      EXPECT_GT(more.work, alone.work);
    }
    EXPECT_LE(more.max_volume, alone.max_volume);
    if (more.max_volume == alone.max_volume) {
      EXPECT_LE(more.total, alone.total);
    }
    if (std::string(name) == "cora" && k == 8) {
      EXPECT_EQ(more.starts, 2);
      EXPECT_LT(more.max_volume, alone.max_volume);
    }
  }
}

// The degree start from 3 seeds of its graph partition against 1 (the km1 start's chain first,
// the other starts off): on cora and citeseer at k = 8, the result never worse (a lower maximum,
// or the same with a total no larger), at most two further starts counted, the stats and every
// block's volumes against the graph, the budget against the km1 start, balance, the same
// partition and work at 1 and 2 threads (refine_both's checks). On cora k = 8 every seed's
// start fits the budget and is refined.
TEST(BottleneckRefiner, DegreeGraphSeedsKeepTheBestWithinTheBudget) {
  for (const char* name : {"cora", "citeseer"}) {
    SCOPED_TRACE(name);
    const CoraStart start(8, name);
    auto seeds = [](int n) {
      return [=](BottleneckContext& b) {
        b.multilevel_start = false;
        b.degree_start_epsilon = 0;
        b.volume_bisection_epsilons.clear();
        b.degree_graph_seeds = n;
      };
    };
    BottleneckStats one;
    BottleneckStats three;
    start.refine_both(seeds(1), seeds(3), one, three);
    EXPECT_GE(three.starts, one.starts);
    EXPECT_LE(three.starts, one.starts + 2);
    EXPECT_LE(three.max_volume, one.max_volume);
    if (three.max_volume == one.max_volume) {
      EXPECT_LE(three.total, one.total);
    }
    if (std::string(name) == "cora") { // every seed's start fits the budget
      EXPECT_EQ(three.starts, 4);
      EXPECT_GT(three.work, one.work);
    }
  }
}

// The volume-aware bisection start's chain after the km1 start's (the degree start off): on
// cora at k = 8 and 32 and citeseer at k = 8, the result never worse than the km1 start's chain
// alone (a lower maximum, or the same with a total no larger), the stats and every block's
// volumes against the graph, the budget against the km1 start, balance, at most one further
// start counted, the same partition and work at 1 and 2 threads (refine_both's checks).
TEST(BottleneckRefiner, VolumeBisectionStartKeepsTheBestWithinTheBudget) {
  for (const auto& [name, k] :
       {std::pair{"cora", 8U}, std::pair{"cora", 32U}, std::pair{"citeseer", 8U}}) {
    SCOPED_TRACE(::testing::Message() << name << " k = " << k);
    const CoraStart start(k, name);
    auto starts = [](bool volume_bisection) {
      return [=](BottleneckContext& b) {
        b.multilevel_start = false;
        b.degree_start_epsilon = 0;
        b.degree_graph_epsilons.clear();
        if (volume_bisection)
          b.volume_bisection_epsilons = {0.1, 0.25, 0.5}; // the strong preset's
        else
          b.volume_bisection_epsilons.clear();
      };
    };
    BottleneckStats alone;
    BottleneckStats more;
    start.refine_both(starts(false), starts(true), alone, more);
    EXPECT_EQ(alone.starts, 1);
    EXPECT_GE(more.starts, 1);
    EXPECT_LE(more.starts, 2);
    if (more.starts > 1) {
      EXPECT_GT(more.work, alone.work);
    }
    EXPECT_LE(more.max_volume, alone.max_volume);
    if (more.max_volume == alone.max_volume) {
      EXPECT_LE(more.total, alone.total);
    }
  }
}

// The volume-aware bisection start runs only where the degree start did not pay: on cora and
// citeseer at k = 8, with both on, the partition and the starts counted equal the degree start's
// alone when that one lowered the km1 start's result; otherwise at most one start more, and a
// result no worse than the degree start's alone.
TEST(BottleneckRefiner, VolumeBisectionStartOnlyWhereTheDegreeStartDidNotPay) {
  for (const char* name : {"cora", "citeseer"}) {
    SCOPED_TRACE(name);
    const CoraStart start(8, name);
    auto starts = [](bool degree_graph, bool volume_bisection) {
      return [=](BottleneckContext& b) {
        b.multilevel_start = false;
        b.degree_start_epsilon = 0;
        if (!degree_graph)
          b.degree_graph_epsilons.clear();
        if (volume_bisection)
          b.volume_bisection_epsilons = {0.1, 0.25, 0.5}; // the strong preset's
        else
          b.volume_bisection_epsilons.clear();
      };
    };
    BottleneckStats alone;
    BottleneckStats degree;
    const std::vector<BlockID> with_degree =
        start.refine_both(starts(false, false), starts(true, false), alone, degree).second;
    BottleneckStats both;
    const std::vector<BlockID> with_both = start.refine_deterministic(starts(true, true), both);
    start.check(with_both, both);
    const bool degree_paid = degree.max_volume < alone.max_volume ||
                             (degree.max_volume == alone.max_volume && degree.total < alone.total);
    if (degree_paid) {
      EXPECT_EQ(with_both, with_degree);
      EXPECT_EQ(both.starts, degree.starts);
    } else {
      EXPECT_LE(both.starts, degree.starts + 1);
      EXPECT_LE(both.max_volume, degree.max_volume);
    }
  }
}

} // namespace
} // namespace gnnpart::hg
