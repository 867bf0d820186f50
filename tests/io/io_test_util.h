#pragma once
// Shared helpers of the io tests: fixture paths, a scratch directory, the golden tiny graph,
// and an assertion for "FILE:LINE: message" input errors.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../test_files.h"
#include "core/errors.h"
#include "core/graph.h"

namespace gnnpart::io::testing {

inline std::string fixture(const std::string& name) {
  return std::string(GNNPART_SOURCE_DIR) + "/tests/fixtures/" + name;
}
inline std::string shared_dataset(const std::string& name) {
  return std::string(GNNPART_SHARED_DIR) + "/datasets/" + name;
}

// A fresh directory under /tmp, removed with everything in it at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("gnnpart_io_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }
  // Names of everything in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

private:
  std::filesystem::path path_;
};

using test_files::read_text;
using test_files::write_text;

// Runs f, expects InputError whose what() starts with `prefix` and contains `needle`.
inline void expect_input_error(const std::function<void()>& f, const std::string& prefix,
                               const std::string& needle = "") {
  try {
    f();
    ADD_FAILURE() << "expected InputError starting with '" << prefix << "'";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.substr(0, prefix.size()), prefix) << "message: " << what;
    EXPECT_NE(what.find(needle), std::string::npos)
        << "message: " << what << "\nmissing: " << needle;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message spans lines: " << what;
  }
}

// The tiny graph of tests/fixtures/tiny/README.md.
inline const std::vector<EdgeID> kTinyOffsets = {0, 2, 5, 8, 10, 13, 15, 16, 16};
inline const std::vector<NodeID> kTinyAdjacency = {1, 2, 0, 2, 3, 0, 1, 4, 1, 4, 2, 3, 5, 4, 6, 5};
inline const std::vector<Weight> kTinyWeights = {2, 1, 2, 3, 1, 1, 3, 5, 1, 1, 5, 1, 2, 2, 1, 1};
inline const std::vector<Weight> kTinyVertexWeights = {1, 2, 1, 1, 3, 1, 1, 1};

inline CsrGraph tiny_graph(bool edge_weights = true, bool vertex_weights = false) {
  return CsrGraph(kTinyOffsets, kTinyAdjacency, edge_weights ? kTinyWeights : std::vector<Weight>{},
                  1, vertex_weights ? kTinyVertexWeights : std::vector<Weight>{});
}

inline void expect_same_structure(const CsrGraph& g, const CsrGraph& h) {
  ASSERT_EQ(g.num_nodes(), h.num_nodes());
  EXPECT_EQ(std::vector<EdgeID>(g.offsets().begin(), g.offsets().end()),
            std::vector<EdgeID>(h.offsets().begin(), h.offsets().end()));
  EXPECT_EQ(std::vector<NodeID>(g.adjacency().begin(), g.adjacency().end()),
            std::vector<NodeID>(h.adjacency().begin(), h.adjacency().end()));
}

inline void expect_same_graph(const CsrGraph& g, const CsrGraph& h) {
  expect_same_structure(g, h);
  EXPECT_EQ(g.has_edge_weights(), h.has_edge_weights());
  EXPECT_EQ(std::vector<Weight>(g.edge_weights().begin(), g.edge_weights().end()),
            std::vector<Weight>(h.edge_weights().begin(), h.edge_weights().end()));
  EXPECT_EQ(g.ncon(), h.ncon());
  EXPECT_EQ(std::vector<Weight>(g.vertex_weights().begin(), g.vertex_weights().end()),
            std::vector<Weight>(h.vertex_weights().begin(), h.vertex_weights().end()));
}

} // namespace gnnpart::io::testing
