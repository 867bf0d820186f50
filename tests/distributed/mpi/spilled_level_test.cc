// SpilledLevel (spilled_adjacency.h) on coarse levels made by the distributed clustering and
// contraction on several ranks: a level written to its scratch file and read back is the level,
// array for array, with 32-bit and 64-bit coarse edge weights, for a level spilled again after
// coming back, and for the level above; the scratch file never shows in its directory, and a
// directory that cannot hold it throws before the level is touched. Run under mpirun (CTest
// distributed.spilled_level); every rank runs every test, so the collectives line up.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/errors.h"
#include "distributed/chunked_route.h"
#include "distributed/clustering.h"
#include "distributed/contraction.h"
#include "distributed/spilled_adjacency.h"
#include "chord_ring.h"

namespace gnnpart::distributed {
namespace {

using test::chord_ring;
using test::kVertices;

DistGraph coarser(const Comm& comm, const DistGraph& graph) {
  const DistContext ctx;
  Contraction contraction =
      contract(comm, graph, cluster(comm, graph, ctx, 0, Weight{16}), kDefaultChunkItems);
  return std::move(contraction.coarse);
}

void expect_same(const DistGraph& a, const DistGraph& b) {
  EXPECT_EQ(a.vtxdist, b.vtxdist);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.n_local, b.n_local);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.adjacency, b.adjacency);
  EXPECT_EQ(a.spilled, nullptr);
  EXPECT_EQ(b.spilled, nullptr);
  EXPECT_EQ(a.edge_weights, b.edge_weights);
  EXPECT_EQ(a.edge_weights32, b.edge_weights32);
  EXPECT_EQ(a.vertex_weights, b.vertex_weights);
  EXPECT_EQ(a.ghost_global, b.ghost_global);
  EXPECT_EQ(a.global_n, b.global_n);
  EXPECT_EQ(a.global_m, b.global_m);
  EXPECT_EQ(a.total_weight, b.total_weight);
}

// A directory of this process's own, removed at the end.
struct ScratchDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("gnnpart-spilled-level-test-" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  bool empty() const { return std::filesystem::is_empty(path); }
};

// Spills level, checks that it was emptied and that no file shows, reads it back and compares.
void spill_and_take(DistGraph& level, const ScratchDir& dir) {
  const DistGraph before = level;
  ASSERT_GT(before.local_entries(), 0u);
  const SpilledLevel spilled(level, dir.path.string());
  EXPECT_TRUE(level.adjacency.empty());
  EXPECT_TRUE(level.offsets.empty() || level.offsets == std::vector<EdgeID>{0});
  EXPECT_TRUE(level.edge_weights32.empty() && level.edge_weights.empty());
  EXPECT_TRUE(level.vertex_weights.empty() && level.ghost_global.empty());
  EXPECT_TRUE(dir.empty()); // unlinked at once: nothing to leave behind on any exit
  level = spilled.take();
  expect_same(level, before);
}

TEST(SpilledLevel, ReadBackIsTheLevel32BitWeights) {
  const Comm comm = Comm::world();
  const ScratchDir dir;
  const DistGraph fine = chord_ring(comm, 1);
  DistGraph level = coarser(comm, fine);
  ASSERT_FALSE(level.edge_weights32.empty()); // contracted levels of unit graphs: 32-bit
  ASSERT_FALSE(level.vertex_weights.empty());
  ASSERT_LT(level.global_n, fine.global_n);
  spill_and_take(level, dir);
  spill_and_take(level, dir); // spilled again after coming back (a gathered level's finer ones)
  DistGraph above = coarser(comm, level); // the level read back is contracted further as is
  ASSERT_LT(above.global_n, level.global_n);
  spill_and_take(above, dir);
  EXPECT_TRUE(dir.empty());
}

TEST(SpilledLevel, ReadBackIsTheLevel64BitWeights) {
  const Comm comm = Comm::world();
  const ScratchDir dir;
  const DistGraph fine = chord_ring(comm, Weight{1} << 33);
  DistGraph level = coarser(comm, fine);
  ASSERT_FALSE(level.edge_weights.empty()); // sums past 32 bits: 64-bit weights
  ASSERT_TRUE(level.edge_weights32.empty());
  spill_and_take(level, dir);
}

TEST(SpilledLevel, MissingDirectoryThrowsAndKeepsTheLevel) {
  const Comm comm = Comm::world();
  const ScratchDir dir;
  DistGraph level = coarser(comm, chord_ring(comm, 1));
  const DistGraph before = level;
  EXPECT_THROW(SpilledLevel(level, (dir.path / "missing").string()), SystemError);
  expect_same(level, before);
}

} // namespace
} // namespace gnnpart::distributed

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
