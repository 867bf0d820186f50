#include "core/timer.h"

#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"

namespace gnnpart {
namespace {

TEST(Timer, NestsAccumulatesAndPrintsATree) {
  Timer timer;
  {
    auto run = timer.scoped("partition");
    EXPECT_EQ(timer.depth(), 1);
    for (int level = 0; level < 3; ++level) {
      auto coarsen = timer.scoped("coarsen");
      EXPECT_EQ(timer.depth(), 2);
    }
    timer.start("refine");
    timer.stop();
  }
  timer.start("write");
  timer.stop();
  EXPECT_EQ(timer.depth(), 0);
  EXPECT_EQ(timer.count("partition"), 1u);
  EXPECT_EQ(timer.count("partition/coarsen"), 3u);
  EXPECT_EQ(timer.count("partition/refine"), 1u);
  EXPECT_EQ(timer.count("coarsen"), 0u); // only exists under partition
  EXPECT_EQ(timer.count("partition/missing"), 0u);
  EXPECT_GE(timer.seconds("partition"), timer.seconds("partition/coarsen"));
  const std::string tree = timer.to_string();
  // Children follow their parent, indented by two spaces, in first-start order.
  const auto partition = tree.find("partition: ");
  const auto coarsen = tree.find("\n  coarsen: ");
  const auto refine = tree.find("\n  refine: ");
  const auto write = tree.find("\nwrite: ");
  ASSERT_NE(partition, std::string::npos) << tree;
  ASSERT_NE(coarsen, std::string::npos) << tree;
  ASSERT_NE(refine, std::string::npos) << tree;
  ASSERT_NE(write, std::string::npos) << tree;
  EXPECT_EQ(partition, 0u);
  EXPECT_LT(coarsen, refine);
  EXPECT_LT(refine, write);
  EXPECT_NE(tree.find("(x3)"), std::string::npos) << tree;
}

TEST(Timer, StopWithoutStartThrows) {
  Timer timer;
  EXPECT_THROW(timer.stop(), InvalidParameter);
}

TEST(Timer, ReportsTheRunningPhaseAndItsDetail) {
  ProgressStatus status;
  Timer timer;
  timer.report_to(&status);
  EXPECT_EQ(status.get(), "");
  timer.start("partition");
  timer.start("uncoarsen");
  EXPECT_EQ(status.get(), "partition/uncoarsen");
  timer.detail("level 2 of 5, 100 vertices");
  EXPECT_EQ(status.get(), "partition/uncoarsen: level 2 of 5, 100 vertices");
  timer.stop();
  EXPECT_EQ(status.get(), "partition");
  timer.report_to(nullptr);
  timer.stop();
  EXPECT_EQ(status.get(), "partition"); // no longer reported
}

} // namespace
} // namespace gnnpart
