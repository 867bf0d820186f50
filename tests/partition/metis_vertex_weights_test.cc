// Weight matrices for --vertex-weights and --balance-set (used by the METIS backend and the
// multilevel engine alike).
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/graph.h"
#include "partition/vertex_weights.h"

namespace gnnpart {
namespace {

// Path 0 - 1 - 2 plus isolated vertex 3: degrees 1, 2, 1, 0.
const std::vector<EdgeID> kOffsets{0, 1, 3, 4, 4};

TEST(VertexWeights, ParseSpec) {
  EXPECT_EQ(parse_base_vertex_weight("unit"), BaseVertexWeight::kUnit);
  EXPECT_EQ(parse_base_vertex_weight("degree"), BaseVertexWeight::kDegree);
  EXPECT_EQ(parse_base_vertex_weight("weights.txt"), BaseVertexWeight::kValues);
}

TEST(VertexWeights, UnitWithoutSetsIsEmpty) {
  const VertexWeightMatrix m = build_vertex_weights(kOffsets, BaseVertexWeight::kUnit, {}, {});
  EXPECT_EQ(m.ncon, 1);
  EXPECT_TRUE(m.weights.empty());
}

TEST(VertexWeights, Degree) {
  const VertexWeightMatrix m = build_vertex_weights(kOffsets, BaseVertexWeight::kDegree, {}, {});
  EXPECT_EQ(m.ncon, 1);
  EXPECT_EQ(m.weights, (std::vector<Weight>{1, 2, 1, 0}));
}

TEST(VertexWeights, ValuesAndTwoSets) {
  const std::vector<std::int64_t> values{5, 0, 7, 1};
  const std::vector<std::vector<NodeID>> sets{{0, 2, 2}, {3}};
  const VertexWeightMatrix m =
      build_vertex_weights(kOffsets, BaseVertexWeight::kValues, values, sets);
  EXPECT_EQ(m.ncon, 3);
  // Row-major: vertex u's constraints at 3u, 3u+1, 3u+2.
  EXPECT_EQ(m.weights, (std::vector<Weight>{5, 1, 0, 0, 0, 0, 7, 1, 0, 1, 0, 1}));
}

TEST(VertexWeights, UnitWithASetInstallsTwoConstraints) {
  CsrGraph g(kOffsets, {1, 0, 2, 1});
  const std::vector<std::vector<NodeID>> sets{{1}};
  set_balance_weights(g, BaseVertexWeight::kUnit, {}, sets);
  EXPECT_EQ(g.ncon(), 2);
  EXPECT_EQ(g.total_vertex_weight(0), 4);
  EXPECT_EQ(g.total_vertex_weight(1), 1);
  EXPECT_EQ(g.vertex_weight(1, 1), 1);
  EXPECT_EQ(g.vertex_weight(0, 1), 0);
}

TEST(VertexWeights, Errors) {
  const std::vector<std::int64_t> short_values{1, 2};
  EXPECT_THROW(build_vertex_weights(kOffsets, BaseVertexWeight::kValues, short_values, {}),
               InvalidParameter);
  const std::vector<std::int64_t> negative{1, -2, 1, 1};
  EXPECT_THROW(build_vertex_weights(kOffsets, BaseVertexWeight::kValues, negative, {}),
               InvalidParameter);
  const std::vector<std::vector<NodeID>> out_of_range{{4}};
  EXPECT_THROW(build_vertex_weights(kOffsets, BaseVertexWeight::kUnit, {}, out_of_range),
               InvalidParameter);
  const std::vector<std::vector<NodeID>> empty_set{{}};
  EXPECT_THROW(build_vertex_weights(kOffsets, BaseVertexWeight::kUnit, {}, empty_set),
               InvalidParameter);
}

} // namespace
} // namespace gnnpart
