#pragma once
// A check shared by the FM refiners' tests: the default preset's partition of a power-law graph
// is valid and the same on repeated runs, at each of the given thread counts (which FM path runs
// depends on the thread count).
#include <initializer_list>

#include <gtest/gtest.h>

#include "core/options.h"
#include "multilevel_test_graphs.h"
#include "partition/partitioner.h"

namespace gnnpart::ml_test {

inline void expect_default_preset_deterministic(std::initializer_list<int> thread_counts) {
  const CsrGraph g = power_law_graph(20000, 4, 8);
  for (BlockID k : {8u, 32u}) {
    PartitionOptions o;
    o.k = k;
    for (int threads : thread_counts) {
      SCOPED_TRACE(testing::Message() << "k " << k << " threads " << threads);
      o.threads = threads;
      const Partition a = partition_graph_multilevel(g, o);
      check_result(g, a, k, o.epsilon);
      for (int run = 0; run < 2; ++run)
        EXPECT_EQ(partition_graph_multilevel(g, o).blocks, a.blocks);
    }
  }
}

} // namespace gnnpart::ml_test
