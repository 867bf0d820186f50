// METIS backend: every result is checked by recomputing assignment, emptiness and balance with
// plain loops here (not with the library's helpers).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <metis.h>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/options.h"
#include "core/random.h"
#include "io/graph_io.h"
#include "multilevel_test_graphs.h"
#include "partition/metis_backend.h"
#include "partition/metis_library.h"
#include "partition/partitioner.h"
#include "partition/vertex_weights.h"

namespace gnnpart {
namespace {

using ml_test::random_graph;

// floor((1 + eps) * ceil(total / k)), computed here independently.
std::int64_t bound(std::int64_t total, std::int64_t k, double eps) {
  const std::int64_t perfect = (total + k - 1) / k;
  return static_cast<std::int64_t>(std::floor((1.0 + eps) * static_cast<double>(perfect) + 1e-9));
}

// Every vertex in [0, k), no empty block when n >= k, every constraint within its bound.
void expect_valid(const CsrGraph& g, const Partition& p, BlockID k, double eps) {
  const NodeID n = g.num_nodes();
  ASSERT_EQ(p.k, k);
  ASSERT_EQ(p.blocks.size(), n);
  const int ncon = g.ncon();
  std::vector<std::int64_t> weight(static_cast<std::size_t>(k) * ncon, 0);
  std::vector<std::int64_t> total(ncon, 0);
  std::vector<NodeID> count(k, 0);
  for (NodeID u = 0; u < n; ++u) {
    ASSERT_LT(p.blocks[u], k) << "vertex " << u;
    ++count[p.blocks[u]];
    for (int c = 0; c < ncon; ++c) {
      const std::int64_t w = g.has_vertex_weights() ? g.vertex_weights()[u * ncon + c] : 1;
      weight[p.blocks[u] * ncon + c] += w;
      total[c] += w;
    }
  }
  for (BlockID b = 0; b < k; ++b) {
    if (n >= k) {
      EXPECT_GT(count[b], 0u) << "block " << b << " is empty";
    }
    for (int c = 0; c < ncon; ++c)
      EXPECT_LE(weight[b * ncon + c], bound(total[c], k, eps))
          << "block " << b << " constraint " << c << " k " << k << " eps " << eps;
  }
}

PartitionOptions metis_options(BlockID k, double eps, std::uint64_t seed = 1) {
  PartitionOptions o;
  o.k = k;
  o.epsilon = eps;
  o.seed = seed;
  o.algorithm = Algorithm::kMetis;
  return o;
}

TEST(MetisBackend, BalanceWithinBoundOnSeveralGraphs) {
  std::vector<CsrGraph> graphs;
  graphs.push_back(ml_test::grid_graph(20, 25));
  graphs.push_back(random_graph(600, 2400, 7));
  graphs.push_back(random_graph(300, 250, 8)); // sparse: many components and isolated vertices
  graphs.push_back(ml_test::star_graph(150));
  graphs.push_back(ml_test::grid_graph(1, 97)); // a path
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    for (const BlockID k : {2u, 3u, 8u, 16u}) {
      for (const double eps : {0.0, 0.03, 0.1}) {
        SCOPED_TRACE("graph " + std::to_string(i) + " k " + std::to_string(k) + " eps " +
                     std::to_string(eps));
        const Partition p = partition_graph_metis(graphs[i], metis_options(k, eps));
        expect_valid(graphs[i], p, k, eps);
      }
    }
  }
}

TEST(MetisBackend, DispatchThroughPartitionGraph) {
  const CsrGraph g = random_graph(400, 1600, 3);
  for (const Objective objective : {Objective::kCut, Objective::kVolume}) {
    PartitionOptions o = metis_options(6, 0.03);
    o.objective = objective;
    const Partition p = partition_graph(g, o);
    expect_valid(g, p, 6, 0.03);
  }
}

TEST(MetisBackend, TwoConstraintsWithABalanceSet) {
  for (const std::uint64_t seed : {1u, 2u}) {
    CsrGraph g = random_graph(1000, 4000, seed);
    // A "training set" of 70 vertices clustered at the low ids, where METIS would happily put
    // them all into one or two blocks without the second constraint.
    std::vector<std::vector<NodeID>> sets(1);
    for (NodeID u = 0; u < 70; ++u)
      sets[0].push_back(u);
    set_balance_weights(g, BaseVertexWeight::kUnit, {}, sets);
    ASSERT_EQ(g.ncon(), 2);
    for (const BlockID k : {2u, 4u, 8u, 16u, 32u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " k " + std::to_string(k));
      const Partition p = partition_graph_metis(g, metis_options(k, 0.03, seed));
      expect_valid(g, p, k, 0.03);
    }
  }
}

// Cora with its training and validation sets as two more constraints at large k: METIS leaves
// blocks over the tight per-set bounds where no single vertex fits elsewhere in all three
// constraints, so the repair has to chain moves.
TEST(MetisBackend, CoraWithTrainAndValidationSets) {
  const std::string dir = std::string(GNNPART_SOURCE_DIR) + "/datasets/";
  CsrGraph g = io::read_graph(dir + "cora.edges.gz");
  const std::vector<std::vector<NodeID>> sets{
      io::read_vertex_set(dir + "cora.train.gz", g.num_nodes()),
      io::read_vertex_set(dir + "cora.val.gz", g.num_nodes())};
  set_balance_weights(g, BaseVertexWeight::kUnit, {}, sets);
  ASSERT_EQ(g.ncon(), 3);
  for (const BlockID k : {8u, 32u, 100u}) {
    SCOPED_TRACE(k);
    const Partition p = partition_graph(g, metis_options(k, 0.03));
    expect_valid(g, p, k, 0.03);
  }
}

TEST(MetisBackend, DegreeWeightsAndABalanceSet) {
  CsrGraph g = random_graph(800, 3000, 11);
  std::vector<std::vector<NodeID>> sets(1);
  for (NodeID u = 0; u < 800; u += 9)
    sets[0].push_back(u);
  set_balance_weights(g, BaseVertexWeight::kDegree, {}, sets);
  for (const BlockID k : {2u, 5u, 12u}) {
    const Partition p = partition_graph(g, metis_options(k, 0.05));
    expect_valid(g, p, k, 0.05);
  }
}

TEST(MetisBackend, SameSeedSamePartition) {
  const CsrGraph g = random_graph(500, 2000, 5);
  const Partition a = partition_graph_metis(g, metis_options(8, 0.03, 42));
  const Partition b = partition_graph_metis(g, metis_options(8, 0.03, 42));
  EXPECT_EQ(a.blocks, b.blocks);
}

TEST(MetisBackend, OneBlockAndEmptyGraph) {
  const CsrGraph g = ml_test::grid_graph(3, 3);
  const Partition p = partition_graph_metis(g, metis_options(1, 0.03));
  EXPECT_EQ(p.blocks, std::vector<BlockID>(9, 0));
  const CsrGraph empty;
  const Partition q = partition_graph_metis(empty, metis_options(4, 0.03));
  EXPECT_EQ(q.k, 4u);
  EXPECT_TRUE(q.blocks.empty());
}

TEST(MetisBackend, GraphWithoutEdges) {
  const CsrGraph g = ml_test::graph_from_edges(50, {});
  const Partition p = partition_graph_metis(g, metis_options(7, 0.0));
  expect_valid(g, p, 7, 0.0);
}

TEST(MetisBackend, KAsLargeAsN) {
  const CsrGraph g = random_graph(40, 80, 9);
  const Partition p = partition_graph_metis(g, metis_options(40, 0.03));
  expect_valid(g, p, 40, 0.03);
}

TEST(MetisBackend, RejectsBadParameters) {
  const CsrGraph g = ml_test::grid_graph(4, 4);
  EXPECT_THROW(partition_graph_metis(g, metis_options(0, 0.03)), InvalidParameter);
  EXPECT_THROW(partition_graph_metis(g, metis_options(17, 0.03)), InvalidParameter);
  EXPECT_THROW(partition_graph_metis(g, metis_options(2, -0.5)), InvalidParameter);
  PartitionOptions o = metis_options(2, 0.03);
  o.objective = Objective::kKm1;
  EXPECT_THROW(partition_graph_metis(g, o), Unsupported);
  EXPECT_THROW(partition_graph(g, o), Unsupported);
}

TEST(MetisBackend, HeavyVertexIsInfeasible) {
  CsrGraph g = ml_test::grid_graph(4, 4);
  std::vector<Weight> w(16, 1);
  w[5] = 10; // total 25, k = 4: bound floor(1.03 * 7) = 7
  g.set_vertex_weights(1, w);
  try {
    partition_graph_metis(g, metis_options(4, 0.03));
    FAIL() << "expected InfeasibleBalance";
  } catch (const InfeasibleBalance& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vertex 5"), std::string::npos) << what;
    EXPECT_NE(what.find("constraint 0"), std::string::npos) << what;
  }
  EXPECT_THROW(check_balance_feasible(g, 4, 0.03), InfeasibleBalance);
  EXPECT_NO_THROW(check_balance_feasible(g, 2, 0.03)); // bound 13
}

TEST(MetisBackend, HeavyVertexInSecondConstraint) {
  CsrGraph g = ml_test::grid_graph(4, 4);
  std::vector<Weight> w(32, 1);
  w[2 * 9 + 1] = 9; // constraint 1 total 24, k = 4: bound 6
  g.set_vertex_weights(2, w);
  try {
    check_balance_feasible(g, 4, 0.03);
    FAIL() << "expected InfeasibleBalance";
  } catch (const InfeasibleBalance& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vertex 9"), std::string::npos) << what;
    EXPECT_NE(what.find("constraint 1"), std::string::npos) << what;
  }
}

TEST(MetisBackend, WeightsBeyondIdxTAreRefused) {
  CsrGraph g = ml_test::grid_graph(2, 2);
  g.set_vertex_weights(1, {Weight{1} << 31, Weight{1} << 31, Weight{1} << 31, Weight{1} << 31});
  EXPECT_THROW(partition_graph_metis(g, metis_options(2, 0.03)), Unsupported);
  CsrGraph h = ml_test::grid_graph(2, 2);
  h.set_vertex_weights(1, {1, -1, 1, 1});
  EXPECT_THROW(partition_graph_metis(h, metis_options(2, 0.03)), InvalidParameter);
}

TEST(MetisBackend, SelfLoopIsRefused) {
  // 0 - 1 with a self loop on 1, built by hand (the builder would drop it).
  const CsrGraph g({0, 1, 3}, {1, 0, 1});
  EXPECT_THROW(partition_graph_metis(g, metis_options(2, 0.5)), InvalidParameter);
}

TEST(MetisBackend, StatusCodesBecomeExceptions) {
  EXPECT_NO_THROW(check_metis_status(METIS_OK, "call"));
  EXPECT_THROW(check_metis_status(METIS_ERROR_INPUT, "call"), InvalidParameter);
  EXPECT_THROW(check_metis_status(METIS_ERROR_MEMORY, "call"), SystemError);
  EXPECT_THROW(check_metis_status(METIS_ERROR, "call"), Error);
  // A real METIS_ERROR_INPUT: a negative number of parts, through the entry points the backend
  // takes from libmetis.
  const MetisLibrary& metis = metis_library();
  idx_t n = 2, ncon = 1, nparts = -1, objval = 0;
  std::vector<idx_t> xadj{0, 1, 2}, adjncy{1, 0}, part(2);
  idx_t options[METIS_NOPTIONS];
  metis.set_default_options(options);
  const int status =
      metis.part_graph_kway(&n, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr,
                            &nparts, nullptr, nullptr, options, &objval, part.data());
  EXPECT_NE(status, METIS_OK);
  EXPECT_THROW(check_metis_status(status, "METIS_PartGraphKway"), Error);
}

TEST(MetisBackend, RepairFromAllInOneBlock) {
  CsrGraph g = random_graph(300, 900, 4);
  std::vector<std::vector<NodeID>> sets(1);
  for (NodeID u = 0; u < 300; u += 7)
    sets[0].push_back(u);
  set_balance_weights(g, BaseVertexWeight::kUnit, {}, sets);
  Partition p{5, std::vector<BlockID>(300, 0)};
  const std::vector<Weight> bounds = balance_bounds(g, 5, 0.03);
  EXPECT_FALSE(is_balanced(g, p, bounds));
  const std::size_t moves = repair_balance(g, p, bounds);
  EXPECT_GT(moves, 0u);
  EXPECT_TRUE(is_balanced(g, p, bounds));
  expect_valid(g, p, 5, 0.03);
  // Already balanced: nothing to do.
  EXPECT_EQ(repair_balance(g, p, bounds), 0u);
}

TEST(MetisBackend, RepairFillsEmptyBlocks) {
  const CsrGraph g = ml_test::grid_graph(5, 5);
  Partition p{4, std::vector<BlockID>(25, 0)};
  for (NodeID u = 0; u < 25; ++u)
    p.blocks[u] = u < 13 ? 0 : 1;       // 2 and 3 empty
  const std::vector<Weight> bounds{25}; // no balance pressure
  repair_balance(g, p, bounds);
  std::vector<int> count(4, 0);
  for (const BlockID b : p.blocks)
    ++count[b];
  for (int b = 0; b < 4; ++b)
    EXPECT_GT(count[b], 0) << b;
}

} // namespace
} // namespace gnnpart
