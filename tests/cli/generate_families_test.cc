// gnnpart generate's families and options for the generalisation suite (docs/generalisation.md):
// mesh sizes, --relabel reproducible and recorded in the header, --hub-degree, --rmat, and the
// one-line errors for impossible requests.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_util.h"

namespace gnnpart::cli_testing {
namespace {

TEST(GenerateFamilies, MeshRelabelHubAndRmatOptions) {
  TempDir dir;
  // 10 x 10 triangulated grid: 90 + 90 + 81 edges.
  const std::string mesh = "generate mesh --vertices 100 --seed 2 --relabel --quiet -o ";
  ASSERT_EQ(gnnpart(mesh + dir.file("a.edges")).code, 0);
  ASSERT_EQ(gnnpart(mesh + dir.file("b.edges")).code, 0);
  const std::string a = slurp(dir.file("a.edges"));
  EXPECT_EQ(a, slurp(dir.file("b.edges"))); // same seed, same file
  EXPECT_NE(a.find("--relabel"), std::string::npos);
  EXPECT_NE(a.find("# edges: 261"), std::string::npos) << a.substr(0, 200);
  ASSERT_EQ(
      gnnpart("generate mesh --vertices 100 --seed 3 --relabel --quiet -o " + dir.file("c.edges"))
          .code,
      0);
  EXPECT_NE(a, slurp(dir.file("c.edges")));

  const Result hub =
      gnnpart("generate grid3d --vertices 1000 --hub-degree 50 --quiet -o " + dir.file("h.edges"));
  ASSERT_EQ(hub.code, 0) << hub.err;
  const Result info = gnnpart("info " + dir.file("h.edges"));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("/ 50"), std::string::npos) << info.out; // maximum degree

  ASSERT_EQ(gnnpart("generate rmat --vertices 1024 --edges 4000 --rmat 0.7 0.1 0.1 --quiet -o " +
                    dir.file("r.edges"))
                .code,
            0);
  EXPECT_NE(slurp(dir.file("r.edges")).find("--rmat 0.7 0.1 0.1"), std::string::npos);
  ASSERT_EQ(
      gnnpart("generate web --vertices 3000 --edges 24000 --quiet -o " + dir.file("w.edges")).code,
      0);

  const Result bad =
      gnnpart("generate mesh --vertices 100 --hub-degree 100 -o " + dir.file("bad.edges"));
  EXPECT_NE(bad.code, 0);
  EXPECT_EQ(count_lines(bad.err), 1u) << bad.err;
  EXPECT_FALSE(fs::exists(dir.file("bad.edges")));
}

} // namespace
} // namespace gnnpart::cli_testing
