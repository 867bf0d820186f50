#pragma once
// Layout directories for distributed GNN trainers (format: docs/layout.md). A directory holds
// layout.json (the manifest), assignment.txt (one block id per vertex line, the gpmetis / DGL
// convention; vertex layouts only) and part<p>/ with one NumPy .npy file per array of block p.
// Writers build everything in DIR.tmp.XXXXXX beside DIR and rename it into place, so a failed
// run leaves no partial layout; an existing layout directory (or empty directory) is replaced.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/layout.h"
#include "core/partition.h"

namespace gnnpart::io {

inline constexpr int kLayoutFormatVersion = 1;

struct LayoutWriteOptions {
  std::string graph_name;      // recorded in the manifest
  std::string model = "graph"; // partitioning model and objective, recorded as given
  std::string objective = "cut";
  std::uint32_t feature_dim = 0;     // width for the predicted bytes (0: features' dim, else 1)
  std::uint32_t bytes_per_value = 4; // float32 features
  // Mini-batch prediction (stochastic model): expected rows sent per batch of batch_size
  // vertices sampled with these fanouts; recorded when batch_size > 0.
  std::uint32_t batch_size = 0;
  std::vector<int> fanouts;
  double predicted_rows_per_batch = 0;
  double predicted_rows_per_batch_stderr = 0;
};

// features: empty, or one slice per block (the owned rows of plans[p]).
void write_layout_directory(const std::string& dir, std::span<const LayoutPlan> plans,
                            const Partition& partition, std::span<const FeatureSlice> features,
                            const LayoutWriteOptions& options);
void write_edge_layout_directory(const std::string& dir, std::span<const EdgeLayoutBlock> blocks,
                                 const LayoutWriteOptions& options);

// What the manifest says (the parts a trainer needs).
struct LayoutManifest {
  int format_version = 0;
  std::string kind; // "vertex" or "edge"
  std::string graph_name;
  std::string model;
  std::string objective;
  NodeID n = 0;
  EdgeID m = 0;
  BlockID k = 0;
  bool has_features = false;
  std::uint32_t feature_dim = 0;         // width used for predicted bytes
  std::uint32_t features_source_dim = 0; // columns of the sliced features (0: none)
  bool has_labels = false;
  std::uint64_t predicted_rows_per_layer = 0;
  std::uint64_t predicted_bytes_per_layer = 0;
  std::uint64_t max_send_rows = 0;
  std::uint64_t max_recv_rows = 0;
  std::uint64_t messages_per_layer = 0;
  std::uint32_t minibatch_batch_size = 0; // 0: no mini-batch prediction in the manifest
  std::vector<int> minibatch_fanouts;     // hop 1 first, as `gnnpart layout --fanouts` took them
  double predicted_rows_per_batch = 0;
};

LayoutManifest read_layout_manifest(const std::string& dir);
// Block p of a vertex layout; the optional arrays are empty when absent. Checks array sizes and
// id ranges against each other (InputError naming the file).
LayoutPlan read_layout_plan(const std::string& dir, BlockID block);
// The sliced features of block p (dim 0 and no rows when the layout has none).
FeatureSlice read_feature_slice(const std::string& dir, BlockID block);
EdgeLayoutBlock read_edge_layout_block(const std::string& dir, BlockID block);

// "DIR/part<p>"
std::string layout_block_dir(const std::string& dir, BlockID block);

} // namespace gnnpart::io
