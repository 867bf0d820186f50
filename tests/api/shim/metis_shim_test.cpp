// The METIS shim (gnnpart_metis) as an unchanged METIS caller sees it. This binary links the
// shim only (no libmetis: checked by the ctest metis_shim_without_libmetis).
#include <vector>

#include <gtest/gtest.h>

#include "gnnpart/gnnpart_metis.h"

namespace {

// Two 4-cycles {0,1,2,3} and {4,5,6,7} joined by the edge 3-4.
struct Graph {
  std::vector<idx_t> xadj{0, 2, 4, 6, 9, 12, 14, 16, 18};
  std::vector<idx_t> adjncy{1, 3, 0, 2, 1, 3, 0, 2, 4, 3, 5, 7, 4, 6, 5, 7, 4, 6};
};

idx_t recount_cut(const Graph& g, const std::vector<idx_t>& part, idx_t base) {
  idx_t cut = 0;
  for (idx_t u = 0; u + 1 < static_cast<idx_t>(g.xadj.size()); ++u)
    for (idx_t e = g.xadj[u] - base; e < g.xadj[u + 1] - base; ++e)
      cut += part[u] != part[g.adjncy[e] - base];
  return cut / 2;
}

// METIS_PartGraphKway as a METIS caller writes it: g with unit weights into nparts blocks (tpwgts
// and options may be null); the cut and the blocks land in cut and part.
int part_graph_kway(Graph& g, idx_t nparts, idx_t* options, idx_t& cut, std::vector<idx_t>& part,
                    real_t* tpwgts = nullptr) {
  idx_t n = static_cast<idx_t>(g.xadj.size()) - 1, ncon = 1;
  return METIS_PartGraphKway(&n, &ncon, g.xadj.data(), g.adjncy.data(), nullptr, nullptr, nullptr,
                             &nparts, tpwgts, nullptr, options, &cut, part.data());
}

TEST(MetisShim, SetDefaultOptionsFillsTheDefaultSentinel) {
  std::vector<idx_t> options(METIS_NOPTIONS, 5);
  ASSERT_EQ(METIS_SetDefaultOptions(options.data()), METIS_OK);
  for (idx_t v : options)
    EXPECT_EQ(v, -1);
}

TEST(MetisShim, PartitionsLikeMetisWithoutTouchingInputs) {
  Graph g;
  const Graph original;
  idx_t cut = -1;
  std::vector<idx_t> options(METIS_NOPTIONS);
  METIS_SetDefaultOptions(options.data());
  options[METIS_OPTION_SEED] = 3;
  options[METIS_OPTION_UFACTOR] = 1;
  std::vector<idx_t> part(8, -1);
  ASSERT_EQ(part_graph_kway(g, 2, options.data(), cut, part), METIS_OK)
      << gnnpart_metis_last_error();
  EXPECT_EQ(g.xadj, original.xadj);
  EXPECT_EQ(g.adjncy, original.adjncy);
  EXPECT_EQ(cut, recount_cut(g, part, 0));
  EXPECT_EQ(cut, 1);
  int sizes[2] = {0, 0};
  for (idx_t b : part) {
    ASSERT_TRUE(b == 0 || b == 1);
    ++sizes[b];
  }
  EXPECT_EQ(sizes[0], 4);
}

TEST(MetisShim, OneBasedNumberingInAndOut) {
  Graph g;
  for (idx_t& v : g.xadj)
    ++v;
  for (idx_t& v : g.adjncy)
    ++v;
  idx_t cut = -1;
  std::vector<idx_t> options(METIS_NOPTIONS);
  METIS_SetDefaultOptions(options.data());
  options[METIS_OPTION_NUMBERING] = 1;
  std::vector<idx_t> part(8, -1);
  ASSERT_EQ(part_graph_kway(g, 2, options.data(), cut, part), METIS_OK)
      << gnnpart_metis_last_error();
  for (idx_t b : part)
    ASSERT_TRUE(b == 1 || b == 2);
  EXPECT_EQ(cut, recount_cut(g, part, 1));
  EXPECT_EQ(g.xadj.front(), 1); // the caller's arrays stay 1-based
}

TEST(MetisShim, BadInputReturnsMetisErrorInput) {
  Graph g;
  idx_t cut = 0;
  std::vector<idx_t> part(8);
  EXPECT_EQ(part_graph_kway(g, 9, nullptr, cut, part), METIS_ERROR_INPUT); // k > n
  EXPECT_STRNE(gnnpart_metis_last_error(), "");
  g.adjncy[0] = 5; // 0 -> 5 without 5 -> 0
  EXPECT_EQ(part_graph_kway(g, 2, nullptr, cut, part), METIS_ERROR_INPUT);
  real_t tpwgts[2] = {0.9f, 0.1f};
  Graph ok;
  EXPECT_EQ(part_graph_kway(ok, 2, nullptr, cut, part, tpwgts), METIS_ERROR_INPUT);
}

} // namespace
