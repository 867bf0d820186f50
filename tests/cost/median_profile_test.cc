// cost::median_profile: a repeated calibration keeps every field's median, tables and grids
// entry by entry; profiles whose tables differ in shape are refused.
#include <gtest/gtest.h>

#include <vector>

#include "core/errors.h"
#include "cost/profile.h"

namespace gnnpart::cost {
namespace {

// A profile whose every measured value is `x` times a base value.
CostProfile scaled(double x) {
  CostProfile p;
  p.name = "run";
  p.ranks = 2;
  p.latency_s = 1e-6 * x;
  p.rank_spread = 0.1 * x;
  p.sync_wait_s = 2e-5 * x;
  p.sample_draw_s = 3e-8 * x;
  p.gemm = {{16, 1e-9 * x}, {256, 5e-10 * x}};
  p.allreduce_table = {{8, 1e-5 * x}, {65536, 4e-5 * x}};
  p.pack_grid.rows = {156, 1250};
  p.pack_grid.tables = {{{4, 2e-9 * x}}, {{4, 1e-9 * x}}};
  return p;
}

TEST(MedianProfile, EveryFieldAndEntryTakesTheMiddleRun) {
  const CostProfile m = median_profile({scaled(3), scaled(1), scaled(2)});
  const CostProfile two = scaled(2);
  EXPECT_DOUBLE_EQ(m.latency_s, two.latency_s);
  EXPECT_DOUBLE_EQ(m.rank_spread, two.rank_spread);
  EXPECT_DOUBLE_EQ(m.sync_wait_s, two.sync_wait_s);
  EXPECT_DOUBLE_EQ(m.sample_draw_s, two.sample_draw_s);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(m.gemm[i].seconds, two.gemm[i].seconds);
    EXPECT_DOUBLE_EQ(m.gemm[i].width, two.gemm[i].width);
    EXPECT_DOUBLE_EQ(m.allreduce_table[i].seconds, two.allreduce_table[i].seconds);
    EXPECT_DOUBLE_EQ(m.pack_grid.tables[i][0].seconds, two.pack_grid.tables[i][0].seconds);
  }
  EXPECT_EQ(m.pack_grid.rows, two.pack_grid.rows);
  EXPECT_EQ(m.name, "run");
  EXPECT_EQ(m.ranks, 2);
  // Entry by entry, not the middle profile as a whole: one run's outlier in one field only.
  CostProfile a = scaled(1), b = scaled(1), c = scaled(1);
  a.rank_spread = 0.9;
  b.gemm[1].seconds = 1.0;
  const CostProfile n = median_profile({a, b, c});
  EXPECT_DOUBLE_EQ(n.rank_spread, scaled(1).rank_spread);
  EXPECT_DOUBLE_EQ(n.gemm[1].seconds, scaled(1).gemm[1].seconds);
  // An even count averages the middle two; one profile is itself.
  EXPECT_DOUBLE_EQ(median_profile({scaled(1), scaled(3)}).latency_s, scaled(2).latency_s);
  EXPECT_DOUBLE_EQ(median_profile({scaled(5)}).latency_s, scaled(5).latency_s);
}

TEST(MedianProfile, RefusesNoneAndTablesOfOtherShapes) {
  EXPECT_THROW(median_profile({}), InvalidParameter);
  CostProfile shorter = scaled(1);
  shorter.gemm.pop_back();
  EXPECT_THROW(median_profile({scaled(1), shorter}), InvalidParameter);
  CostProfile other_rows = scaled(1);
  other_rows.pack_grid.rows[1] = 5000;
  EXPECT_THROW(median_profile({scaled(1), other_rows}), InvalidParameter);
}

} // namespace
} // namespace gnnpart::cost
