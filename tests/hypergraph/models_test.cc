// Column-net and stochastic models: km1 of the column-net hypergraph equals the graph's
// communication volume on every shared graph; the stochastic model's km1 equals the summed
// volume of its own batches; sampling is seeded.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/metrics.h"
#include "core/random.h"
#include "hypergraph/hypergraph_partitioner.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

CsrGraph path_graph(NodeID n) {
  EdgeList edges;
  edges.n = n;
  for (NodeID u = 0; u + 1 < n; ++u) {
    edges.sources.push_back(u);
    edges.targets.push_back(u + 1);
  }
  return build_csr(edges);
}

// Star 0-{1,2,3} plus edge 3-4.
CsrGraph star_graph() {
  EdgeList edges;
  edges.n = 5;
  edges.sources = {0, 0, 0, 3};
  edges.targets = {1, 2, 3, 4};
  return build_csr(edges);
}

TEST(ColumnNet, NetsAndWeights) {
  const CsrGraph g = star_graph();
  const Hypergraph h = build_column_net(g);
  ASSERT_EQ(h.num_nodes(), 5u);
  ASSERT_EQ(h.num_nets(), 5u);
  EXPECT_EQ(std::vector<NodeID>(h.pins(0).begin(), h.pins(0).end()),
            (std::vector<NodeID>{0, 1, 2, 3}));
  EXPECT_EQ(std::vector<NodeID>(h.pins(4).begin(), h.pins(4).end()), (std::vector<NodeID>{3, 4}));
  EXPECT_EQ(h.vertex_weight(0), 4); // deg 3 + 1
  EXPECT_EQ(h.vertex_weight(4), 2);
  const Hypergraph unit = build_column_net(g, ColumnNetWeights::kUnit);
  EXPECT_FALSE(unit.has_vertex_weights());
  // Blocks {0,1,2} | {3,4}: lambda(0) = 2, lambda(3) = 2, others 1 -> volume 2.
  Partition p{2, {0, 0, 0, 1, 1}};
  EXPECT_EQ(hypergraph_objective(h, p, Objective::kKm1), 2);
  EXPECT_EQ(compute_graph_metrics(g, p).comm_volume, 2);
}

// Every shared graph: km1 of the column-net model = comm volume, for a random partition and
// for a contiguous-range partition, k in {2, 7, 32}.
TEST(ColumnNet, Km1EqualsCommVolumeOnSharedGraphs) {
  const std::filesystem::path dir = GNNPART_SHARED_DIR "/datasets";
  if (!std::filesystem::exists(dir))
    FAIL() << "../shared/datasets is required beside the project (" << dir << ")";
  int graphs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 9 || name.substr(name.size() - 9) != ".edges.gz")
      continue;
    SCOPED_TRACE(name);
    const CsrGraph g = testing::read_edges_gz(entry.path().string());
    const Hypergraph h = build_column_net(g, ColumnNetWeights::kUnit);
    ASSERT_EQ(h.num_pins(), EdgeID{g.num_nodes()} + g.num_directed_edges());
    Rng rng(derive_seed(1, graphs));
    for (BlockID k : {2u, 7u, 32u}) {
      Partition random{k, testing::random_blocks(g.num_nodes(), k, rng)};
      Partition ranges{k, std::vector<BlockID>(g.num_nodes())};
      for (NodeID u = 0; u < g.num_nodes(); ++u)
        ranges.blocks[u] = static_cast<BlockID>(std::uint64_t{u} * k / g.num_nodes());
      for (const Partition* p : {&random, &ranges}) {
        const GraphMetrics gm = compute_graph_metrics(g, *p);
        EXPECT_EQ(hypergraph_objective(h, *p, Objective::kKm1), gm.comm_volume);
      }
    }
    ++graphs;
  }
  EXPECT_GE(graphs, 1);
}

TEST(Stochastic, FullBatchOneLayerEqualsColumnNetVolume) {
  // One batch holding every vertex, all neighbours: the model is the column net without the
  // single-pin nets, so km1 agrees with the graph's volume.
  const CsrGraph g = star_graph();
  StochasticOptions so;
  so.batch_size = 5;
  so.num_batches = 1;
  so.vertex_weights = ColumnNetWeights::kUnit;
  const Hypergraph h = build_stochastic_hypergraph(g, so);
  EXPECT_EQ(h.num_nets(), 5u);
  Partition p{2, {0, 1, 0, 1, 1}};
  EXPECT_EQ(hypergraph_objective(h, p, Objective::kKm1), compute_graph_metrics(g, p).comm_volume);
}

TEST(Stochastic, Km1IsSumOfBatchVolumes) {
  const CsrGraph g = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  StochasticOptions so;
  so.batch_size = 64;
  so.num_batches = 12;
  so.fanouts = {5, 3};
  so.seed = 3;
  const Hypergraph h = build_stochastic_hypergraph(g, so);
  EXPECT_TRUE(h.has_net_weights());
  Weight multiplicity = 0;
  for (NetID e = 0; e < h.num_nets(); ++e)
    multiplicity += h.net_weight(e);
  Rng rng(5);
  Partition p{4, testing::random_blocks(g.num_nodes(), 4, rng)};
  Weight sum = 0;
  Weight nets = 0;
  for (std::uint32_t j = 0; j < so.num_batches; ++j) {
    const MinibatchSample s = sample_minibatch(g, so, j);
    EXPECT_EQ(s.batch.size(), 64u);
    sum += minibatch_volume(s, p);
    std::vector<NodeID> needed(s.needs.begin(), s.needs.end());
    std::sort(needed.begin(), needed.end());
    nets += std::unique(needed.begin(), needed.end()) - needed.begin();
  }
  EXPECT_EQ(hypergraph_objective(h, p, Objective::kKm1), sum);
  EXPECT_EQ(multiplicity, nets);                      // merging keeps the total multiplicity
  EXPECT_LT(static_cast<Weight>(h.num_nets()), nets); // and does merge something
}

TEST(Stochastic, FanoutsLimitTreesAndSamplingIsSeeded) {
  const CsrGraph g = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  StochasticOptions so;
  so.batch_size = 32;
  so.fanouts = {2};
  so.seed = 9;
  const MinibatchSample a = sample_minibatch(g, so, 4);
  const MinibatchSample b = sample_minibatch(g, so, 4);
  EXPECT_EQ(a.batch, b.batch);
  EXPECT_EQ(a.needs, b.needs);
  for (std::size_t i = 0; i < a.batch.size(); ++i) {
    EXPECT_LE(a.need_offsets[i + 1] - a.need_offsets[i], 2u);
    for (auto p = a.need_offsets[i]; p < a.need_offsets[i + 1]; ++p) {
      const auto nb = g.neighbors(a.batch[i]);
      EXPECT_TRUE(std::find(nb.begin(), nb.end(), a.needs[p]) != nb.end());
    }
  }
  so.seed = 10;
  EXPECT_NE(sample_minibatch(g, so, 4).batch, a.batch);
}

TEST(Stochastic, TrainingSetAndEpochs) {
  const CsrGraph g = path_graph(10);
  StochasticOptions so;
  so.training_set = {1, 3, 5, 7};
  so.batch_size = 2;
  std::vector<NodeID> epoch;
  for (std::uint64_t j = 0; j < 2; ++j) {
    const MinibatchSample s = sample_minibatch(g, so, j);
    epoch.insert(epoch.end(), s.batch.begin(), s.batch.end());
  }
  std::sort(epoch.begin(), epoch.end());
  EXPECT_EQ(epoch, (std::vector<NodeID>{1, 3, 5, 7})); // one epoch covers the set once
  so.training_set = {11};
  EXPECT_THROW(sample_minibatch(g, so, 0), InvalidParameter);
  so.training_set = {};
  so.batch_size = 0;
  EXPECT_THROW(build_stochastic_hypergraph(g, so), InvalidParameter);
}

TEST(Stochastic, EstimateOnFreshSamples) {
  const CsrGraph g = testing::read_edges_gz(GNNPART_SHARED_DIR "/datasets/cora.edges.gz");
  StochasticOptions so;
  so.batch_size = 128;
  so.fanouts = {10, 10};
  Partition one{1, std::vector<BlockID>(g.num_nodes(), 0)};
  const MinibatchEstimate zero = estimate_minibatch_volume(g, one, so, 8);
  EXPECT_EQ(zero.mean, 0.0);
  EXPECT_EQ(zero.standard_error, 0.0);
  Partition halves{2, std::vector<BlockID>(g.num_nodes())};
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    halves.blocks[u] = u % 2;
  const MinibatchEstimate a = estimate_minibatch_volume(g, halves, so, 16);
  const MinibatchEstimate b = estimate_minibatch_volume(g, halves, so, 16);
  EXPECT_EQ(a.mean, b.mean);
  EXPECT_GT(a.mean, 0.0);
  EXPECT_GT(a.standard_error, 0.0);
  EXPECT_LT(a.standard_error, a.mean);
  // Fresh samples differ from the model's own batches 0..15.
  double own = 0;
  for (std::uint32_t j = 0; j < 16; ++j)
    own += static_cast<double>(minibatch_volume(sample_minibatch(g, so, j), halves));
  EXPECT_NE(own / 16, a.mean);
}

} // namespace
} // namespace gnnpart::hg
