#pragma once
// Writing a trainer layout directory for a partitioned graph (format: docs/layout.md). Used by
// `gnnpart layout` and by `gnnpart partition --layout DIR`.
#include <cstdint>
#include <string>
#include <vector>

#include "core/graph.h"
#include "core/layout.h"
#include "core/partition.h"
#include "gnnpart/gnnpart_defaults.h"

namespace gnnpart::app {

struct LayoutRequest {
  std::string dir;        // output directory (replaced atomically)
  std::string graph_name; // recorded in layout.json (e.g. graph_name_of(path))
  std::string model = "graph";
  std::string objective = "unspecified";
  // Optional side files (empty: none): vertex-id sets, labels (n lines), sparse features.
  std::string train;
  std::string val;
  std::string test;
  std::string labels;
  std::string features;
  std::uint32_t feature_dim = 0; // width for the predicted bytes (0: the features' width)
  // With batch_size > 0, layout.json also records the stochastic model's expected rows per
  // mini-batch (training set `train`, else all vertices), estimated on `samples` batches.
  std::uint32_t batch_size = 0;
  std::vector<int> fanouts;
  std::uint32_t samples = 200;
  std::uint64_t seed = 0;
  int threads = GNNPART_DEFAULT_THREADS; // <= 0: all hardware threads
};

// Builds the plans of every block, attaches the side files and writes the directory.
// Returns the predicted traffic (rows per layer = the partition's communication volume).
LayoutSummary write_layout(const CsrGraph& graph, const Partition& partition,
                           const LayoutRequest& request);

// "datasets/cora.edges.gz" -> "cora".
std::string graph_name_of(const std::string& path);

} // namespace gnnpart::app
