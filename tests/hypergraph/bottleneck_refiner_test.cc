// Bottleneck objectives of the column-net model (--objective max-volume / epoch): the per-block
// volume tracker against send and receive volumes recomputed by brute force (and against
// lib/cost's block_traffic on a graph), and the refiner's results checked from scratch: the
// largest per-block volume never above the km1 start's, the total within its budget, every
// block within its weight limit, the same output for the same seed and threads (the refiner
// alone: at 1 and 2 threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "bottleneck_test_util.h"
#include "core/block_limits.h"
#include "core/errors.h"
#include "core/logging.h"
#include "core/parallel.h"
#include "core/random.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/block_volumes.h"
#include "hypergraph/bottleneck_refiner.h"
#include "hypergraph/context.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

TEST(BlockVolumes, TinyHypergraphWithOwnersByBruteForceThroughMoves) {
  const Hypergraph hg = tiny_owned_hypergraph();
  const std::vector<NodeID>& owners = kTinyOwners;
  PartitionedHypergraph phg(hg, 3);
  const std::vector<BlockID> start{0, 0, 1, 1, 2, 2};
  phg.assign(start);
  BlockVolumes volumes(phg, owners);
  // Net 0 {0,1,2} owned by 1 (block 0) reaches block 1: 0 sends 1 one row of weight 1, etc.
  expect_tracked(volumes, brute_force(hg, owners, phg.blocks(), 3));
  EXPECT_EQ(volumes.total(), phg.objective(Objective::kKm1));
  Rng rng(7);
  MoveDelta delta;
  for (int step = 0; step < 200; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(6));
    const BlockID to = static_cast<BlockID>(rng.below(3));
    if (to == phg.block(u))
      continue;
    volumes.delta(phg, u, to, delta);
    const Weight total_before = volumes.total();
    volumes.apply(delta);
    phg.move(u, to, Objective::kKm1);
    EXPECT_EQ(volumes.total(), total_before + delta.total);
    expect_tracked(volumes, brute_force(hg, owners, phg.blocks(), 3));
    EXPECT_EQ(volumes.total(), phg.objective(Objective::kKm1));
  }
}

TEST(BlockVolumes, RejectsAnOwnerOutsideItsNet) {
  const std::vector<EdgeID> offsets{0, 2, 4};
  const std::vector<NodeID> pins{0, 1, 2, 3};
  const Hypergraph hg(4, offsets, pins);
  PartitionedHypergraph phg(hg, 2);
  phg.assign(std::vector<BlockID>{0, 0, 1, 1});
  const std::vector<NodeID> owners{0, 1}; // vertex 1 is not a pin of net 1
  EXPECT_THROW(BlockVolumes(phg, owners), InvalidParameter);
}

// The column-net model's traffic equals lib/cost's, which reads the graph, after random moves.
TEST(BlockVolumes, ColumnNetTrafficMatchesBlockTraffic) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const BlockID k = 6;
  std::vector<NodeID> owners(model.num_nets());
  std::iota(owners.begin(), owners.end(), NodeID{0});
  Rng rng(3);
  std::vector<BlockID> blocks = testing::random_blocks(graph.num_nodes(), k, rng);
  PartitionedHypergraph phg(model, k);
  phg.assign(blocks);
  BlockVolumes volumes(phg, owners);
  MoveDelta delta;
  BlockVolumes::TrafficScratch scratch;
  for (int step = 0; step < 300; ++step) {
    const NodeID u = static_cast<NodeID>(rng.below(graph.num_nodes()));
    const BlockID to = static_cast<BlockID>(rng.below(k));
    if (to == phg.block(u))
      continue;
    volumes.delta(phg, u, to, delta);
    const std::vector<cost::BlockTraffic> priced = volumes.traffic_after(delta, scratch);
    volumes.apply(delta);
    phg.move(u, to, Objective::kKm1);
    if (step % 50 != 0)
      continue;
    const Partition p{k, std::vector<BlockID>(phg.blocks().begin(), phg.blocks().end())};
    const std::vector<cost::BlockTraffic> expected = cost::block_traffic(graph, p);
    const std::vector<cost::BlockTraffic> tracked = volumes.traffic();
    for (BlockID b = 0; b < k; ++b) {
      for (const auto* t : {&tracked[b], &priced[b]}) {
        EXPECT_EQ(t->rows, expected[b].rows);
        EXPECT_EQ(t->halo, expected[b].halo);
        EXPECT_EQ(t->local_nnz, expected[b].local_nnz);
        EXPECT_EQ(t->halo_nnz, expected[b].halo_nnz);
        EXPECT_EQ(t->send_rows, expected[b].send_rows);
        EXPECT_EQ(t->recv_rows, expected[b].recv_rows);
        EXPECT_EQ(t->send_messages, expected[b].send_messages);
        EXPECT_EQ(t->recv_messages, expected[b].recv_messages);
      }
    }
    expect_tracked(volumes, graph_volumes(graph, phg.blocks(), k));
  }
}

PartitionOptions bottleneck_options(BlockID k, std::uint64_t seed, int threads,
                                    Objective objective) {
  PartitionOptions o = testing::options(k, seed, threads);
  o.objective = objective;
  return o;
}

PartitionOptions km1_options(PartitionOptions o) {
  o.objective = Objective::kKm1;
  return o;
}

// Checks p from scratch against the km1 partition of the same options.
void check_max_volume(const CsrGraph& graph, const Hypergraph& model, const Partition& p,
                      const Partition& km1, const PartitionOptions& o) {
  testing::check(model, p, km1_options(o)); // every vertex placed, balance, no empty block
  const Volumes after = graph_volumes(graph, p.blocks, o.k);
  const Volumes before = graph_volumes(graph, km1.blocks, o.k);
  EXPECT_LE(after.max(), before.max());
  EXPECT_LE(static_cast<double>(after.total), 1.05 * static_cast<double>(before.total));
  EXPECT_EQ(hypergraph_objective(model, p, Objective::kMaxVolume), after.max());
}

TEST(BottleneckRefiner, MaxVolumeLowersTheBottleneckWithinTheBudget) {
  for (const char* name : {"cora", "citeseer"}) {
    const CsrGraph graph =
        testing::read_edges_gz(std::string(GNNPART_SHARED_DIR "/datasets/") + name + ".edges.gz");
    const Hypergraph model = build_column_net(graph);
    for (const BlockID k : {4u, 8u, 32u}) {
      SCOPED_TRACE(::testing::Message() << name << " k = " << k);
      const PartitionOptions o = bottleneck_options(k, 3, 2, Objective::kMaxVolume);
      const Partition km1 = partition_column_net(graph, model, testing::options(k, 3, 2));
      const Partition p = partition_column_net(graph, model, o);
      check_max_volume(graph, model, p, km1, o);
      // At k >= 8 these graphs' km1 bottleneck is worth lowering (citeseer at k = 4: 133 units
      // over 4 blocks, every move that lowers it exceeds the budget or the balance).
      if (k >= 8) {
        EXPECT_LT(graph_volumes(graph, p.blocks, k).max(),
                  graph_volumes(graph, km1.blocks, k).max());
      }
    }
  }
}

TEST(BottleneckRefiner, DeterministicForSeedAndThreads) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const Hypergraph model = build_column_net(graph);
  // The whole run: the same seed and thread count give the same partition (the km1 start may
  // differ between thread counts: the graph engine's FM is parallel from 2 threads on).
  for (const int threads : {1, 2}) {
    const PartitionOptions o = bottleneck_options(16, 11, threads, Objective::kMaxVolume);
    EXPECT_EQ(partition_column_net(graph, model, o).blocks,
              partition_column_net(graph, model, o).blocks)
        << threads << " threads";
  }
  // The refiner itself prices in parallel and moves sequentially: from one start, the same
  // result at 1 and 2 threads.
  PartitionOptions km1 = bottleneck_options(16, 11, 2, Objective::kMaxVolume);
  km1.objective = Objective::kKm1;
  const Partition start = partition_column_net(graph, model, km1);
  const PartitionOptions o = bottleneck_options(16, 11, 1, Objective::kMaxVolume);
  const HgContext ctx = make_context(o);
  const BlockLimits limits = uniform_limits(model, o.k, o.epsilon);
  std::vector<NodeID> owners(model.num_nets());
  std::iota(owners.begin(), owners.end(), NodeID{0});
  std::vector<BlockID> first;
  for (const int threads : {1, 2, 2, 1}) {
    PartitionedHypergraph phg(model, o.k);
    phg.assign(start.blocks);
    run_with_threads(
        threads, [&] { return bottleneck_refine(phg, owners, ctx, limits, nullptr); });
    const std::vector<BlockID> blocks(phg.blocks().begin(), phg.blocks().end());
    if (first.empty())
      first = blocks;
    EXPECT_EQ(blocks, first) << threads << " threads";
  }
  EXPECT_NE(first, start.blocks); // the refiner moved something
}

// The refiner's stats against the volumes recomputed from the graph before and after, its bound
// (never a larger maximum) and its total-volume budget.
void expect_refined(const BottleneckStats& stats, const Volumes& before, const Volumes& after,
                    double budget) {
  EXPECT_EQ(stats.start_max_volume, before.max());
  EXPECT_EQ(stats.start_total, before.total);
  EXPECT_EQ(stats.max_volume, after.max());
  EXPECT_EQ(stats.total, after.total);
  EXPECT_LE(after.max(), before.max());
  EXPECT_LE(after.total, static_cast<Weight>(budget * static_cast<double>(before.total)));
}

// The refiner alone, on a random start: its own budget and the tracker's accounting.
TEST(BottleneckRefiner, RandomStartKeepsBudgetAndBalance) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph, ColumnNetWeights::kUnit);
  const BlockID k = 8;
  PartitionOptions o = bottleneck_options(k, 1, 2, Objective::kMaxVolume);
  HgContext ctx = make_context(o);
  ctx.bottleneck.total_budget = 1.01;
  const BlockLimits limits = uniform_limits(model, k, o.epsilon);
  std::vector<BlockID> blocks(graph.num_nodes());
  for (NodeID u = 0; u < graph.num_nodes(); ++u)
    blocks[u] = u % k;
  PartitionedHypergraph phg(model, k);
  phg.assign(blocks);
  std::vector<NodeID> owners(model.num_nets());
  std::iota(owners.begin(), owners.end(), NodeID{0});
  const Volumes before = graph_volumes(graph, blocks, k);
  const BottleneckStats stats = run_with_threads(
      2, [&] { return bottleneck_refine(phg, owners, ctx, limits, nullptr); });
  const Volumes after = graph_volumes(graph, phg.blocks(), k);
  expect_refined(stats, before, after, 1.01);
  EXPECT_LT(after.max(), before.max());
  for (BlockID b = 0; b < k; ++b)
    EXPECT_LE(phg.block_weight(b), limits.max(b, 0));
  EXPECT_GT(stats.moves, 0u);
}

// The max-volume gain's terms (the excess over the round's target, the volume above the average
// block volume at spread_weight, the total at a price growing to total_price as the budget is
// spent), off, at the defaults and heavy: every run checked from the graph's row split alone.
// The largest block volume never above the start's, the total within the budget, every block
// within its limit and non-empty, the stats equal to the recomputed volumes, the same blocks at
// 1 and 2 threads.
TEST(BottleneckRefiner, GainTermsKeepTheInvariantsFromTheGraph) {
  for (const auto& [name, k] : {std::pair{"cora", 8u}, std::pair{"citeseer", 32u}}) {
    const CsrGraph graph =
        testing::read_edges_gz(std::string(GNNPART_SHARED_DIR "/datasets/") + name + ".edges.gz");
    const Hypergraph model = build_column_net(graph);
    const PartitionOptions o = bottleneck_options(k, 5, 1, Objective::kMaxVolume);
    const Partition start = partition_column_net(graph, model, km1_options(o));
    const Volumes before = graph_volumes(graph, start.blocks, k);
    const BlockLimits limits = uniform_limits(model, k, o.epsilon);
    std::vector<NodeID> owners(model.num_nets());
    std::iota(owners.begin(), owners.end(), NodeID{0});
    std::vector<Weight> maxima;
    for (const auto& [price, spread] :
         {std::pair{0.0, 0.0}, std::pair{0.5, 0.1}, std::pair{4.0, 1.0}}) {
      SCOPED_TRACE(::testing::Message()
                   << name << " k = " << k << " price " << price << " spread " << spread);
      HgContext ctx = make_context(o);
      ctx.bottleneck.total_price = price;
      ctx.bottleneck.spread_weight = spread;
      std::vector<BlockID> first;
      for (const int threads : {1, 2}) {
        PartitionedHypergraph phg(model, k);
        phg.assign(start.blocks);
        const BottleneckStats stats = run_with_threads(threads, [&] {
          return bottleneck_refine(phg, owners, ctx, limits, nullptr);
        });
        const std::vector<BlockID> blocks(phg.blocks().begin(), phg.blocks().end());
        const Volumes after = graph_volumes(graph, blocks, k);
        expect_refined(stats, before, after, 1.05);
        std::vector<Weight> rows(k, 0);
        for (const BlockID b : blocks)
          rows[b] += 1;
        for (BlockID b = 0; b < k; ++b) {
          EXPECT_GT(rows[b], 0) << "block " << b;
          EXPECT_LE(rows[b], limits.max(b, 0)) << "block " << b;
        }
        // Each row sent is received once: the blocks' volumes sum to twice the total.
        EXPECT_EQ(std::accumulate(after.send.begin(), after.send.end(), Weight{0}) +
                      std::accumulate(after.recv.begin(), after.recv.end(), Weight{0}),
                  2 * after.total);
        if (first.empty())
          first = blocks;
        EXPECT_EQ(blocks, first) << threads << " threads";
      }
      maxima.push_back(graph_volumes(graph, first, k).max());
    }
    // The refiner lowers the bottleneck with every setting of the terms.
    for (const Weight m : maxima)
      EXPECT_LT(m, before.max());
  }
}

cost::CostProfile slow_network_profile() {
  cost::CostProfile p;
  p.name = "test: slow network";
  p.source = "assumed";
  p.latency_s = 20e-6;
  p.seconds_per_byte = 1e-8; // 100 MB/s
  p.allreduce_latency_s = 20e-6;
  p.allreduce_seconds_per_byte = 1e-9;
  p.spmm = {{1, 2e-9}, {256, 1e-9}};
  p.gemm = {{1, 1e-9}, {256, 5e-10}};
  p.gemm_at_b = p.gemm;
  p.gemm_a_bt = p.gemm;
  p.elementwise_s = 1e-9;
  p.dropout_s = 2e-9;
  p.adam_s = 5e-9;
  return p;
}

TEST(BottleneckRefiner, EpochNeverSlowerThanTheKm1Start) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const Hypergraph model = build_column_net(graph);
  EpochInput epoch{slow_network_profile(), {}};
  epoch.shape.feature_dim = 256;
  epoch.shape.hidden = 64;
  for (const BlockID k : {4u, 16u}) {
    SCOPED_TRACE(k);
    const PartitionOptions o = bottleneck_options(k, 2, 2, Objective::kEpoch);
    const Partition km1 = partition_column_net(graph, model, testing::options(k, 2, 2));
    const Partition p = partition_column_net(graph, model, o, &epoch);
    testing::check(model, p, km1_options(o));
    const double before =
        cost::predict_epoch(cost::block_traffic(graph, km1), epoch.shape, epoch.profile)
            .epoch_seconds;
    const double after =
        cost::predict_epoch(cost::block_traffic(graph, p), epoch.shape, epoch.profile)
            .epoch_seconds;
    EXPECT_LE(after, before);
    EXPECT_LE(static_cast<double>(graph_volumes(graph, p.blocks, k).total),
              1.05 * static_cast<double>(graph_volumes(graph, km1.blocks, k).total));
    EXPECT_EQ(partition_column_net(graph, model, o, &epoch).blocks, p.blocks);
  }
}

TEST(BottleneckRefiner, EpochMovesPricedWithoutTheSpeedSpread) {
  // The ranks' speed spread changes what evaluate predicts, not the epoch objective's moves.
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph);
  EpochInput epoch{slow_network_profile(), {}};
  epoch.shape.feature_dim = 64;
  const PartitionOptions o = bottleneck_options(4, 1, 1, Objective::kEpoch);
  const Partition p = partition_column_net(graph, model, o, &epoch);
  epoch.profile.rank_spread = 0.2;
  epoch.profile.ranks = 4;
  EXPECT_EQ(partition_column_net(graph, model, o, &epoch).blocks, p.blocks);
}

// The refiner starts from the km1 partition that the same options give: the budget (1.05x its
// total) and the bound (never a larger maximum) hold against the partition a user gets with
// --objective km1. The start's maximum and total, as the run logs them, are that partition's.
// citeseer k = 8 at seed 0 on one thread has a level within 1.05x of its finer one, where FM
// leaves its deciding round to the finer level (fm_deciding_round_skip_max_growth): a start
// partitioned without that rule has a maximum of 161 and a total of 289, the km1 partition 163
// and 288 (docs/hypergraph.md, `maxvol15`), so a start made under other settings fails here.
TEST(BottleneckRefiner, StartsFromTheKm1PartitionOfTheSameOptions) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/citeseer.edges.gz");
  const Hypergraph model = build_column_net(graph);
  PartitionOptions o = bottleneck_options(8, 0, 1, Objective::kMaxVolume);
  const Volumes km1 =
      graph_volumes(graph, partition_column_net(graph, model, km1_options(o)).blocks, o.k);
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* log = open_memstream(&text, &size);
  ASSERT_NE(log, nullptr);
  o.logger = Logger(LogLevel::kInfo, log);
  const Partition p = partition_column_net(graph, model, o);
  std::fclose(log);
  const std::string logged(text, size);
  std::free(text);
  const Volumes after = graph_volumes(graph, p.blocks, o.k);
  const std::string line =
      fmt::format("max-volume refinement: max block volume {} -> {}, total {} -> {},", km1.max(),
                  after.max(), km1.total, after.total);
  EXPECT_NE(logged.find(line), std::string::npos) << "expected: " << line << "\n" << logged;
}

TEST(BottleneckRefiner, ClearErrors) {
  const CsrGraph graph = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  const Hypergraph model = build_column_net(graph);
  EXPECT_THROW(partition_column_net(graph, model, bottleneck_options(4, 0, 1, Objective::kEpoch)),
               InvalidParameter); // no profile
  EXPECT_THROW(partition_hypergraph(model, bottleneck_options(4, 0, 1, Objective::kMaxVolume)),
               InvalidParameter); // no net owners
  PartitionOptions graph_model = bottleneck_options(4, 0, 1, Objective::kMaxVolume);
  graph_model.model = Model::kGraph;
  EXPECT_THROW(validate_options(graph_model, 10), InvalidParameter);
  graph_model.model = Model::kStochastic;
  EXPECT_THROW(validate_options(graph_model, 10), InvalidParameter);
}

} // namespace
} // namespace gnnpart::hg
