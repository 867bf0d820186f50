// Cross-check of the builder and graph metrics against the independent evalpart binary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "core/graph_builder.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "core_test_util.h"

namespace gnnpart {
namespace {

std::string run(const std::string& command) {
  std::string output;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr)
    return output;
  char buffer[4096];
  std::size_t read;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, read);
  pclose(pipe);
  return output;
}

// The number after "key": in evalpart's flat JSON object (NaN when missing).
double json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos)
    return std::nan("");
  return std::stod(json.substr(at + key.size() + 4));
}

TEST(EvalpartCrossCheck, GraphMetricsAndBuildStatsAgree) {
  const std::string evalpart = EVALPART_BINARY;
  if (evalpart.empty() || !std::filesystem::exists(evalpart))
    FAIL() << "evalpart was not built: ../shared/tools/evalpart is required beside the project";
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gnnpart_core_evalpart_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Rng rng(derive_seed(61));
  for (int round = 0; round < 4; ++round) {
    const NodeID n = 50 + static_cast<NodeID>(rng.below(2000));
    const EdgeList list = testing::random_edge_list(rng, n, 3 * n, false);
    BuildStats stats;
    const CsrGraph g = run_with_threads(2, [&] { return build_csr(list, {}, &stats); });
    const BlockID k = 1 + static_cast<BlockID>(rng.below(12));
    const Partition p = testing::random_partition(rng, n, k, round % 2 == 1);
    const GraphMetrics m = run_with_threads(2, [&] { return compute_graph_metrics(g, p); });
    {
      std::ofstream edges(dir / "g.edges");
      for (std::size_t i = 0; i < list.sources.size(); ++i)
        edges << list.sources[i] << ' ' << list.targets[i] << '\n';
      std::ofstream part(dir / "p.txt");
      for (BlockID b : p.blocks)
        part << b << '\n';
    }
    const std::string json =
        run(evalpart + " -k " + std::to_string(k) + " --n " + std::to_string(n) + " " +
            (dir / "g.edges").string() + " " + (dir / "p.txt").string() + " 2>&1");
    SCOPED_TRACE(json);
    EXPECT_EQ(json_number(json, "n"), n);
    EXPECT_EQ(json_number(json, "m"), g.num_edges());
    EXPECT_EQ(json_number(json, "self_loops_dropped"), stats.self_loops_dropped);
    EXPECT_EQ(json_number(json, "duplicate_edges_dropped"), stats.duplicates_dropped / 2);
    EXPECT_EQ(json_number(json, "edge_cut"), m.edge_cut);
    EXPECT_EQ(json_number(json, "comm_volume"), m.comm_volume);
    EXPECT_EQ(json_number(json, "max_send_volume"), m.max_send_volume);
    EXPECT_EQ(json_number(json, "max_recv_volume"), m.max_recv_volume);
    EXPECT_EQ(json_number(json, "num_comm_pairs"), m.num_comm_pairs);
    EXPECT_EQ(json_number(json, "boundary_vertices"), m.boundary_vertices);
    EXPECT_EQ(json_number(json, "empty_blocks"), m.empty_blocks);
    EXPECT_NEAR(json_number(json, "imbalance_vertices"), m.imbalance_vertices, 1e-6);
  }
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace gnnpart
