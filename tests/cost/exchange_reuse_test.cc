// The epoch model's exchange and cache terms: SpMM reuse histograms against a brute-force LRU
// stack, the banded-block (cache hit) rates applied to the reads that hit, the trainer's
// HaloExchange rates (pack, wait per byte, unpack) in place of the elementwise copy and beta,
// grid lookups between widths at equal bytes, and profiles with and without the new fields.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "../partition/multilevel_test_graphs.h"
#include "core/errors.h"
#include "core/graph.h"
#include "cost/block_traffic.h"
#include "cost/epoch_model.h"
#include "cost/profile.h"
#include "cost/reuse_distance.h"
#include "cost_test_util.h"

namespace gnnpart::cost {
namespace {

using ml_test::graph_from_edges;

GcnShape one_layer(std::uint32_t features, std::uint32_t classes) {
  GcnShape shape;
  shape.layers = 1;
  shape.feature_dim = features;
  shape.classes = classes;
  shape.dropout = 0;
  return shape;
}

// The brute-force twin: an explicit LRU stack per block and kind, reads in the trainer's order
// (owned rows increasing, self first, then neighbours), the distance the row's depth in it.
std::vector<BlockReuse> lru_twin(const CsrGraph& graph, const Partition& partition) {
  std::vector<BlockReuse> out(partition.k);
  for (BlockID b = 0; b < partition.k; ++b) {
    std::vector<NodeID> local_stack, halo_stack; // most recent first
    auto read = [](std::vector<NodeID>& stack, NodeID row, ReuseHistogram& h) {
      for (std::size_t depth = 0; depth < stack.size(); ++depth) {
        if (stack[depth] == row) {
          std::uint64_t d = depth, bin = 0;
          while (d > 0) {
            d >>= 1;
            ++bin;
          }
          h.reads[bin] += 1;
          stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(depth));
          break;
        }
      }
      stack.insert(stack.begin(), row);
    };
    for (NodeID u = 0; u < graph.num_nodes(); ++u) {
      if (partition.blocks[u] != b)
        continue;
      read(local_stack, u, out[b].local);
      for (const NodeID v : graph.neighbors(u)) {
        if (partition.blocks[v] == b)
          read(local_stack, v, out[b].local);
        else
          read(halo_stack, v, out[b].halo);
      }
    }
  }
  return out;
}

TEST(ReuseDistance, MatchesAnLruStackOnSmallGraphs) {
  // A 4-clique {0..3} whose neighbourhoods overlap, a path 4-9, a star on 10 and chords.
  const CsrGraph graph = graph_from_edges(14, {{0, 1},
                                               {0, 2},
                                               {0, 3},
                                               {1, 2},
                                               {1, 3},
                                               {2, 3},
                                               {4, 5},
                                               {5, 6},
                                               {6, 7},
                                               {7, 8},
                                               {8, 9},
                                               {10, 11},
                                               {10, 12},
                                               {10, 13},
                                               {3, 10},
                                               {9, 0},
                                               {13, 5},
                                               {12, 2}});
  for (const Partition& partition : {Partition{1, std::vector<BlockID>(14, 0)},
                                     Partition{2, {0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1}},
                                     Partition{3, {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}}}) {
    const std::vector<BlockReuse> fast = block_reuse(graph, partition);
    const std::vector<BlockReuse> slow = lru_twin(graph, partition);
    ASSERT_EQ(fast.size(), slow.size());
    for (std::size_t b = 0; b < fast.size(); ++b) {
      EXPECT_EQ(fast[b].local.reads, slow[b].local.reads) << "block " << b;
      EXPECT_EQ(fast[b].halo.reads, slow[b].halo.reads) << "block " << b;
    }
  }
  // k = 1 on the 4-clique alone: reads 0 | 1 0 | 2 0 1 | 3 0 1 2 ... every repeat read is
  // within 3 distinct rows; the first read of each row is cold and not counted.
  const CsrGraph clique = graph_from_edges(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
  const ReuseHistogram h = block_reuse(clique, Partition{1, {0, 0, 0, 0}})[0].local;
  std::uint64_t repeats = 0;
  for (std::size_t bin = 3; bin < h.reads.size(); ++bin)
    EXPECT_EQ(h.reads[bin], 0u) << bin;
  for (const std::uint64_t r : h.reads)
    repeats += r;
  EXPECT_EQ(repeats, 4u * 4u - 4u); // 16 reads (self loops included), 4 of them cold
  EXPECT_DOUBLE_EQ(h.reads_within(1e9), 12);
  EXPECT_DOUBLE_EQ(h.reads_within(0), 0);
}

TEST(ReuseDistance, BlockTrafficCarriesTheHistograms) {
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}, {0, 2}});
  const Partition partition{2, {0, 0, 1, 1}};
  const std::vector<BlockTraffic> blocks = block_traffic(graph, partition);
  const std::vector<BlockReuse> reuse = block_reuse(graph, partition);
  for (BlockID b = 0; b < 2; ++b) {
    EXPECT_EQ(blocks[b].local_reuse.reads, reuse[b].local.reads);
    EXPECT_EQ(blocks[b].halo_reuse.reads, reuse[b].halo.reads);
  }
  EXPECT_FALSE(blocks[0].local_reuse.empty());
}

TEST(EpochModel, ReadsThatHitTheCachePayTheBandedRate) {
  // One rank, one layer 4 -> 2 (transform first, exchange width 2): the local SpMM forward and
  // transposed over the path's 3 + 4 = 7 nonzeros.
  const CsrGraph graph = graph_from_edges(3, {{0, 1}, {1, 2}});
  std::vector<BlockTraffic> blocks = block_traffic(graph, Partition{1, {0, 0, 0}});
  CostProfile p = zero_profile();
  p.spmm = {{1, 4e-3}};
  const GcnShape shape = one_layer(4, 2);
  const double all_far = 2 * 7 * 2 * 4e-3;
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, all_far, 1e-12);
  // Hits at 1e-3: with a cache of any size every repeated read (7 - 3 cold) hits.
  p.spmm_near_grid.rows = {1};
  p.spmm_near_grid.tables = {{{1, 1e-3}}};
  p.spmm_transposed_near_grid = p.spmm_near_grid;
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, all_far, 1e-12); // no cache size
  p.reuse_cache_bytes = 1e9;
  const double split = 2 * 2 * (4 * 1e-3 + 3 * 4e-3);
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, split, 1e-12);
  // Reads 0 1 | 1 0 2 | 2 1: the repeats are at distances 0, 1, 0, 2. A cache of half a
  // 2-wide row of doubles holds half of the distance-0 bin: 1 hit.
  p.reuse_cache_bytes = 8;
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, 2 * 2 * (1e-3 + 6 * 4e-3), 1e-12);
  // Traffic without histograms (the hypergraph engine's) prices every read as a miss.
  p.reuse_cache_bytes = 1e9;
  blocks[0].local_reuse = ReuseHistogram{};
  EXPECT_NEAR(predict_epoch(blocks, shape, p).epoch_seconds, all_far, 1e-12);
}

TEST(EpochModel, HaloExchangeRatesReplaceTheCopyAndBeta) {
  // Two ranks, one layer 4 -> 2: one forward exchange of width 2; each rank sends and receives
  // one row (vertices 1 and 2 across the cut) in one message.
  const CsrGraph graph = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  const std::vector<BlockTraffic> blocks = block_traffic(graph, Partition{2, {0, 0, 1, 1}});
  CostProfile p = zero_profile();
  p.elementwise_s = 1e-3;
  p.seconds_per_byte = 1e-4;
  const GcnShape shape = one_layer(4, 2);
  auto phase = [&](Phase ph) {
    return predict_epoch(blocks, shape, p).ranks[0].phases[phase_index(ph)];
  };
  // Without the grids, per exchange (forward and the transposed one): pack and unpack as a
  // copy of 1 row x 2, the wait as 16 bytes x beta.
  EXPECT_NEAR(phase(Phase::kPack), 2 * 2e-3, 1e-12);
  EXPECT_NEAR(phase(Phase::kUnpack), 2 * 2e-3, 1e-12);
  EXPECT_NEAR(phase(Phase::kWait), 2 * 16e-4, 1e-12);
  p.pack_grid.rows = {1};
  p.pack_grid.tables = {{{1, 5e-3}}};
  p.unpack_grid.rows = {1};
  p.unpack_grid.tables = {{{1, 7e-3}}};
  p.exchange_byte_grid.rows = {1};
  p.exchange_byte_grid.tables = {{{1, 3e-4}}};
  EXPECT_NEAR(phase(Phase::kPack), 2 * 2 * 5e-3, 1e-12);
  EXPECT_NEAR(phase(Phase::kUnpack), 2 * 2 * 7e-3, 1e-12);
  EXPECT_NEAR(phase(Phase::kWait), 2 * 16 * 3e-4, 1e-12);
}

TEST(EpochModel, GridsReadNeighbouringWidthsAtTheSameBytes) {
  // Rates rise where rows x width passes 1000 entries (a cache's size): at width 4 between 250
  // and 1000 rows, at width 16 between 62.5 and 250.
  RateGrid grid;
  grid.rows = {100, 1000};
  grid.tables = {{{4, 1e-9}, {16, 1e-9}}, {{4, 4e-9}, {16, 4e-9}}};
  // Measured widths read their own tables.
  EXPECT_DOUBLE_EQ(rate_at(grid, 100, 4), 1e-9);
  EXPECT_DOUBLE_EQ(rate_at(grid, 1000, 16), 4e-9);
  // Width 8 at 125 rows (1000 entries): width 4's table at 250 rows, width 16's at 62.5
  // (clamped to 100), halfway in log width.
  const double at4 = 1e-9 + std::log(2.5) / std::log(10.0) * 3e-9;
  EXPECT_NEAR(rate_at(grid, 125, 8), 0.5 * (at4 + 1e-9), 1e-20);
  // Outside the measured widths: the nearest width's table at the asked rows.
  EXPECT_NEAR(rate_at(grid, 1000, 64), 4e-9, 1e-20);
}

TEST(ProfileFileFields, NewFieldsRoundTripAndOldProfilesReadWithout) {
  const std::string dir = testing::TempDir() + "gnnpart_exchange_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  CostProfile p = zero_profile();
  RateGrid grid;
  grid.rows = {10, 100};
  grid.tables = {{{4, 1e-9}, {128, 2e-9}}, {{4, 3e-9}, {128, 4e-9}}};
  p.pack_grid = p.unpack_grid = p.exchange_byte_grid = grid;
  p.spmm_near_grid = p.spmm_transposed_near_grid = grid;
  p.exchange_byte_grid.tables[1][1].seconds = 5e-9;
  p.reuse_cache_bytes = 1048576;
  write_profile(dir + "/p.json", p);
  const CostProfile q = read_profile(dir + "/p.json");
  EXPECT_EQ(q.pack_grid.rows, grid.rows);
  EXPECT_EQ(q.unpack_grid.tables.size(), 2u);
  EXPECT_DOUBLE_EQ(q.exchange_byte_grid.tables[1][1].seconds, 5e-9);
  EXPECT_DOUBLE_EQ(q.spmm_near_grid.tables[0][1].seconds, 2e-9);
  EXPECT_EQ(q.spmm_transposed_near_grid.rows, grid.rows);
  EXPECT_DOUBLE_EQ(q.reuse_cache_bytes, 1048576);
  // A profile written before these fields reads with them empty, and prices as before.
  const std::string old = dir + "/old.json";
  std::ofstream(old) << profile_json(zero_profile());
  const CostProfile r = read_profile(old);
  EXPECT_TRUE(r.pack_grid.empty() && r.unpack_grid.empty() && r.exchange_byte_grid.empty());
  EXPECT_TRUE(r.spmm_near_grid.empty() && r.spmm_transposed_near_grid.empty());
  EXPECT_EQ(r.reuse_cache_bytes, 0);
  // A malformed new field is an error naming the file.
  std::string text = profile_json(p);
  text.replace(text.find("\"reuse_cache_bytes\": 1048576"), 28, "\"reuse_cache_bytes\": -1");
  std::ofstream(dir + "/bad.json") << text;
  EXPECT_THROW(read_profile(dir + "/bad.json"), InputError);
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace gnnpart::cost
