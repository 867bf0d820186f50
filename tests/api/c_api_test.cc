// C API (include/gnnpart/gnnpart.h): error statuses on bad input, never a crash; partitions
// checked by recomputing cut and balance here.
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gnnpart/gnnpart.h"

namespace {

// Two triangles {0,1,2} and {3,4,5} joined by the edge 2-3.
struct TwoTriangles {
  std::vector<int64_t> xadj{0, 2, 4, 7, 10, 12, 14};
  std::vector<int64_t> adjncy{1, 2, 0, 2, 0, 1, 3, 2, 4, 5, 3, 5, 3, 4};
};

int call(const TwoTriangles& g, int32_t nparts, const int64_t* vwgt = nullptr,
         const int64_t* adjwgt = nullptr, const gnnpart_options* options = nullptr,
         int32_t* part = nullptr, int64_t* objval = nullptr, int32_t ncon = 1,
         const double* ubvec = nullptr) {
  static thread_local std::vector<int32_t> scratch;
  scratch.assign(6, -1);
  return gnnpart_part_graph_kway(6, ncon, g.xadj.data(), g.adjncy.data(), vwgt, adjwgt, nparts,
                                 ubvec, options, objval, part != nullptr ? part : scratch.data());
}

TEST(CApi, PartitionsTwoTrianglesAlongTheBridge) {
  TwoTriangles g;
  std::vector<int32_t> part(6, -1);
  int64_t cut = -1;
  gnnpart_options options = gnnpart_default_options();
  options.epsilon = 0.0;
  ASSERT_EQ(call(g, 2, nullptr, nullptr, &options, part.data(), &cut), GNNPART_OK)
      << gnnpart_last_error();
  int64_t recount = 0;
  for (int u = 0; u < 6; ++u)
    for (int64_t e = g.xadj[u]; e < g.xadj[u + 1]; ++e)
      recount += part[u] != part[g.adjncy[e]];
  EXPECT_EQ(recount / 2, cut);
  EXPECT_EQ(cut, 1);
  int sizes[2] = {0, 0};
  for (int32_t b : part) {
    ASSERT_TRUE(b == 0 || b == 1);
    ++sizes[b];
  }
  EXPECT_EQ(sizes[0], 3);
  EXPECT_EQ(sizes[1], 3);
  EXPECT_STREQ(gnnpart_last_error(), "");
}

TEST(CApi, ThirtyTwoBitVariantAgreesWithSixtyFourBit) {
  TwoTriangles g;
  std::vector<int32_t> xadj(g.xadj.begin(), g.xadj.end());
  std::vector<int32_t> adjncy(g.adjncy.begin(), g.adjncy.end());
  std::vector<int32_t> part32(6), part64(6);
  gnnpart_options options = gnnpart_default_options();
  options.model = GNNPART_MODEL_HYPERGRAPH;
  options.seed = 5;
  ASSERT_EQ(gnnpart_part_graph_kway32(6, 1, xadj.data(), adjncy.data(), nullptr, nullptr, 2,
                                      nullptr, &options, nullptr, part32.data()),
            GNNPART_OK);
  ASSERT_EQ(call(g, 2, nullptr, nullptr, &options, part64.data()), GNNPART_OK);
  EXPECT_EQ(part32, part64);
}

TEST(CApi, NullXadjIsAnInputError) {
  std::vector<int32_t> part(6);
  EXPECT_EQ(gnnpart_part_graph_kway(6, 1, nullptr, nullptr, nullptr, nullptr, 2, nullptr, nullptr,
                                    nullptr, part.data()),
            GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("xadj"), std::string::npos);
}

TEST(CApi, NullAdjncyIsAnInputError) {
  TwoTriangles g;
  std::vector<int32_t> part(6);
  EXPECT_EQ(gnnpart_part_graph_kway(6, 1, g.xadj.data(), nullptr, nullptr, nullptr, 2, nullptr,
                                    nullptr, nullptr, part.data()),
            GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("adjncy"), std::string::npos);
}

TEST(CApi, NullPartIsAnInputError) {
  TwoTriangles g;
  EXPECT_EQ(gnnpart_part_graph_kway(6, 1, g.xadj.data(), g.adjncy.data(), nullptr, nullptr, 2,
                                    nullptr, nullptr, nullptr, nullptr),
            GNNPART_ERROR_INPUT);
}

TEST(CApi, ZeroPartsIsAnInputError) {
  TwoTriangles g;
  std::vector<int32_t> part(6, 7);
  EXPECT_EQ(call(g, 0, nullptr, nullptr, nullptr, part.data()), GNNPART_ERROR_INPUT);
  EXPECT_EQ(part, std::vector<int32_t>(6, 7)); // untouched on error
  EXPECT_STRNE(gnnpart_last_error(), "");
}

TEST(CApi, MorePartsThanVerticesIsAnInputError) {
  TwoTriangles g;
  EXPECT_EQ(call(g, 7), GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("nparts"), std::string::npos);
}

TEST(CApi, NegativeVertexWeightIsAnInputError) {
  TwoTriangles g;
  const std::vector<int64_t> vwgt{1, 1, -1, 1, 1, 1};
  EXPECT_EQ(call(g, 2, vwgt.data()), GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("negative"), std::string::npos);
}

TEST(CApi, NegativeEdgeWeightIsAnInputError) {
  TwoTriangles g;
  std::vector<int64_t> adjwgt(14, 1);
  adjwgt[6] = -2; // 2 -> 3
  adjwgt[7] = -2; // 3 -> 2
  EXPECT_EQ(call(g, 2, nullptr, adjwgt.data()), GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("edge weight"), std::string::npos);
}

TEST(CApi, AsymmetricAdjacencyIsAnInputError) {
  TwoTriangles g;
  g.adjncy[7] = 4; // 3 -> 2 becomes 3 -> 4 (twice), 2 -> 3 has no reverse
  EXPECT_EQ(call(g, 2), GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("symmetric"), std::string::npos);
}

TEST(CApi, AsymmetricEdgeWeightsAreAnInputError) {
  TwoTriangles g;
  std::vector<int64_t> adjwgt(14, 1);
  adjwgt[6] = 5; // 2 -> 3 weighs 5, 3 -> 2 weighs 1
  EXPECT_EQ(call(g, 2, nullptr, adjwgt.data()), GNNPART_ERROR_INPUT);
}

TEST(CApi, NegativeEpsilonIsAnInputError) {
  TwoTriangles g;
  gnnpart_options options = gnnpart_default_options();
  options.epsilon = -0.1;
  EXPECT_EQ(call(g, 2, nullptr, nullptr, &options), GNNPART_ERROR_INPUT);
  EXPECT_NE(std::string(gnnpart_last_error()).find("epsilon"), std::string::npos);
}

TEST(CApi, UbvecBelowOneIsAnInputError) {
  TwoTriangles g;
  const double ubvec[1] = {0.95};
  EXPECT_EQ(call(g, 2, nullptr, nullptr, nullptr, nullptr, nullptr, 1, ubvec), GNNPART_ERROR_INPUT);
}

TEST(CApi, NeighbourOutOfRangeIsAnInputError) {
  TwoTriangles g;
  g.adjncy[0] = 6;
  EXPECT_EQ(call(g, 2), GNNPART_ERROR_INPUT);
  g.adjncy[0] = -1;
  EXPECT_EQ(call(g, 2), GNNPART_ERROR_INPUT);
}

TEST(CApi, DecreasingOffsetsAreAnInputError) {
  TwoTriangles g;
  g.xadj[2] = 1;
  EXPECT_EQ(call(g, 2), GNNPART_ERROR_INPUT);
}

TEST(CApi, UnknownModelIsAnInputError) {
  TwoTriangles g;
  gnnpart_options options = gnnpart_default_options();
  options.model = 17;
  EXPECT_EQ(call(g, 2, nullptr, nullptr, &options), GNNPART_ERROR_INPUT);
}

TEST(CApi, UnknownFlowsSettingIsAnInputError) {
  TwoTriangles g;
  gnnpart_options options = gnnpart_default_options();
  EXPECT_EQ(options.flows, GNNPART_FLOWS_PRESET);
  options.model = GNNPART_MODEL_HYPERGRAPH;
  for (int32_t flows : {GNNPART_FLOWS_ON, GNNPART_FLOWS_OFF}) {
    options.flows = flows;
    EXPECT_EQ(call(g, 2, nullptr, nullptr, &options), GNNPART_OK) << gnnpart_last_error();
  }
  options.flows = 3;
  EXPECT_EQ(call(g, 2, nullptr, nullptr, &options), GNNPART_ERROR_INPUT);
}

TEST(CApi, VertexHeavierThanABlockIsInfeasible) {
  TwoTriangles g;
  const std::vector<int64_t> vwgt{100, 1, 1, 1, 1, 1};
  EXPECT_EQ(call(g, 2, vwgt.data()), GNNPART_ERROR_INFEASIBLE);
  EXPECT_STRNE(gnnpart_last_error(), "");
}

TEST(CApi, TwoConstraintsAreBothBalanced) {
  TwoTriangles g;
  // Constraint 0: unit; constraint 1: only vertices 0 and 3 ("train" vertices).
  const std::vector<int64_t> vwgt{1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0};
  std::vector<int32_t> part(6);
  gnnpart_options options = gnnpart_default_options();
  options.epsilon = 0.0;
  ASSERT_EQ(call(g, 2, vwgt.data(), nullptr, &options, part.data(), nullptr, 2), GNNPART_OK)
      << gnnpart_last_error();
  int64_t load[2][2] = {{0, 0}, {0, 0}};
  for (int u = 0; u < 6; ++u)
    for (int c = 0; c < 2; ++c)
      load[part[u]][c] += vwgt[u * 2 + c];
  EXPECT_EQ(load[0][0], 3);
  EXPECT_EQ(load[0][1], 1);
  EXPECT_EQ(load[1][1], 1);
}

TEST(CApi, EvaluateRecountsTheCut) {
  TwoTriangles g;
  const std::vector<int32_t> part{0, 0, 1, 1, 0, 0};
  int64_t cut = -1, volume = -1;
  double imbalance = -1;
  ASSERT_EQ(gnnpart_evaluate(6, g.xadj.data(), g.adjncy.data(), nullptr, 2, part.data(), &cut,
                             &volume, &imbalance),
            GNNPART_OK);
  EXPECT_EQ(cut, 4); // 0-2, 1-2, 3-4, 3-5
  // lambda - 1: vertices 0,1 (see 2), 2 (sees 0), 3 (sees 4), 4, 5 (see 3) -> 6
  EXPECT_EQ(volume, 6);
  EXPECT_NEAR(imbalance, 4.0 / 3.0 - 1.0, 1e-12);
  const std::vector<int32_t> bad{0, 0, 2, 1, 0, 0};
  EXPECT_EQ(gnnpart_evaluate(6, g.xadj.data(), g.adjncy.data(), nullptr, 2, bad.data(), nullptr,
                             nullptr, nullptr),
            GNNPART_ERROR_INPUT);
}

TEST(CApi, ErrorMessagesAreThreadLocal) {
  TwoTriangles g;
  EXPECT_EQ(call(g, 0), GNNPART_ERROR_INPUT);
  std::string other;
  std::thread([&] { other = gnnpart_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_STRNE(gnnpart_last_error(), "");
}

} // namespace
