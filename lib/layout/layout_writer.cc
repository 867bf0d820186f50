// Writers of layout directories (layout_io.h): block arrays as .npy, assignment.txt and the
// layout.json manifest, staged and renamed into place.
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "io/npy.h"
#include "layout/json.h"
#include "layout/layout_io.h"
#include "layout/staging_dir.h"

namespace gnnpart::io {

namespace {

using layout::make_block_dir;
using layout::StagingDir;
using layout::write_text;
namespace fs = std::filesystem;

template <typename T> void ids(const fs::path& dir, const char* name, const std::vector<T>& data) {
  write_npy_ids((dir / fmt::format("{}.npy", name)).string(), std::span<const T>(data));
}

std::string manifest_head(const LayoutWriteOptions& options, const char* kind, NodeID n, EdgeID m,
                          BlockID k) {
  return fmt::format(
      "{{\n  \"format\": \"gnnpart-layout\",\n  \"format_version\": {},\n  \"kind\": \"{}\",\n"
      "  \"graph\": {},\n  \"n\": {},\n  \"m\": {},\n  \"k\": {},\n  \"model\": {},\n"
      "  \"objective\": {},\n",
      kLayoutFormatVersion, kind, json_quoted(options.graph_name), n, m, k,
      json_quoted(options.model), json_quoted(options.objective));
}

std::string predicted_json(const LayoutSummary& s, std::uint32_t dim, std::uint32_t bytes,
                           const char* extra) {
  return fmt::format("  \"predicted\": {{\"rows_per_layer\": {}, \"bytes_per_layer\": {}, "
                     "\"feature_dim\": {}, \"bytes_per_value\": {}, \"max_send_rows\": {}, "
                     "\"max_recv_rows\": {}, \"messages_per_layer\": {}{}}}",
                     s.rows_per_layer, s.rows_per_layer * dim * bytes, dim, bytes, s.max_send_rows,
                     s.max_recv_rows, s.messages, extra);
}

} // namespace

std::string layout_block_dir(const std::string& dir, BlockID block) {
  return (fs::path(dir) / fmt::format("part{}", block)).string();
}

void write_layout_directory(const std::string& dir, std::span<const LayoutPlan> plans,
                            const Partition& partition, std::span<const FeatureSlice> features,
                            const LayoutWriteOptions& options) {
  if (plans.empty())
    throw InvalidParameter("layout: no blocks");
  if (!features.empty() && features.size() != plans.size()) {
    throw InvalidParameter("layout: feature slices for " + std::to_string(features.size()) +
                           " of " + std::to_string(plans.size()) + " blocks");
  }
  const BlockID k = static_cast<BlockID>(plans.size());
  const bool has_labels = !plans[0].labels.empty();
  const std::uint32_t source_dim = features.empty() ? 0 : features[0].dim;
  const std::uint32_t dim = options.feature_dim > 0 ? options.feature_dim
                            : source_dim > 0        ? source_dim
                                                    : 1;
  StagingDir staging(dir);
  std::string blocks_json;
  for (BlockID p = 0; p < k; ++p) {
    const LayoutPlan& plan = plans[p];
    if (plan.block != p || plan.k != k)
      throw InvalidParameter("layout: plans out of order");
    const fs::path bdir = make_block_dir(staging.path(), p);
    ids(bdir, "owned", plan.owned);
    ids(bdir, "row_offsets", plan.row_offsets);
    ids(bdir, "columns", plan.columns);
    ids(bdir, "halo", plan.halo);
    ids(bdir, "halo_owner", plan.halo_owner);
    ids(bdir, "degree", plan.degree);
    ids(bdir, "neighbors", plan.neighbors);
    ids(bdir, "send_offsets", plan.send_offsets);
    ids(bdir, "send_local", plan.send_local);
    ids(bdir, "recv_offsets", plan.recv_offsets);
    ids(bdir, "recv_local", plan.recv_local);
    ids(bdir, "train", plan.train_local);
    ids(bdir, "val", plan.val_local);
    ids(bdir, "test", plan.test_local);
    if (has_labels) {
      write_npy((bdir / "labels.npy").string(), std::span<const std::int64_t>(plan.labels));
    }
    if (!features.empty()) {
      const FeatureSlice& f = features[p];
      if (f.offsets.size() != plan.num_owned() + std::size_t{1}) {
        throw InvalidParameter("layout: feature slice of block " + std::to_string(p) +
                               " does not match its owned rows");
      }
      ids(bdir, "feat_offsets", f.offsets);
      ids(bdir, "feat_cols", f.cols);
      write_npy((bdir / "feat_values.npy").string(), std::span<const float>(f.values));
    }
    blocks_json += fmt::format(
        "    {{\"block\": {}, \"owned\": {}, \"halo\": {}, \"local_edges\": {}, "
        "\"neighbors\": {}, \"send_rows\": {}, \"recv_rows\": {}, \"train\": {}, \"val\": {}, "
        "\"test\": {}}}{}\n",
        p, plan.num_owned(), plan.num_halo(), plan.columns.size(), plan.neighbors.size(),
        plan.send_rows(), plan.recv_rows(), plan.train_local.size(), plan.val_local.size(),
        plan.test_local.size(), p + 1 < k ? "," : "");
  }
  {
    std::string assignment;
    assignment.reserve(partition.blocks.size() * 3);
    for (BlockID b : partition.blocks) {
      assignment += std::to_string(b);
      assignment += '\n';
    }
    write_text(staging.path() / "assignment.txt", assignment);
  }
  const LayoutSummary summary = summarize_layout(plans);
  std::string json = manifest_head(options, "vertex", plans[0].n, plans[0].m, k);
  json +=
      fmt::format("  \"features\": {},\n  \"features_source_dim\": {},\n  \"labels\": {},\n",
                  features.empty() ? "false" : "true", source_dim, has_labels ? "true" : "false");
  json += predicted_json(summary, dim, options.bytes_per_value, "") + ",\n";
  if (options.batch_size > 0) {
    json += fmt::format("  \"minibatch\": {{\"batch_size\": {}, \"fanouts\": [{}], "
                        "\"predicted_rows_per_batch\": {:.6f}, \"stderr\": {:.6f}}},\n",
                        options.batch_size, fmt::join(options.fanouts, ", "),
                        options.predicted_rows_per_batch, options.predicted_rows_per_batch_stderr);
  }
  json += "  \"blocks\": [\n" + blocks_json + "  ]\n}\n";
  write_text(staging.path() / "layout.json", json);
  staging.commit();
}

void write_edge_layout_directory(const std::string& dir, std::span<const EdgeLayoutBlock> blocks,
                                 const LayoutWriteOptions& options) {
  if (blocks.empty())
    throw InvalidParameter("layout: no blocks");
  const BlockID k = static_cast<BlockID>(blocks.size());
  const std::uint32_t dim = options.feature_dim > 0 ? options.feature_dim : 1;
  StagingDir staging(dir);
  std::string blocks_json;
  for (BlockID p = 0; p < k; ++p) {
    const EdgeLayoutBlock& b = blocks[p];
    if (b.block != p || b.k != k)
      throw InvalidParameter("layout: blocks out of order");
    const fs::path bdir = make_block_dir(staging.path(), p);
    ids(bdir, "vertices", b.vertices);
    ids(bdir, "master", b.master);
    ids(bdir, "degree", b.degree);
    ids(bdir, "edge_ids", b.edge_ids);
    ids(bdir, "edge_src", b.edge_src);
    ids(bdir, "edge_dst", b.edge_dst);
    ids(bdir, "neighbors", b.neighbors);
    ids(bdir, "mirror_offsets", b.mirror_offsets);
    ids(bdir, "mirror_local", b.mirror_local);
    ids(bdir, "master_offsets", b.master_offsets);
    ids(bdir, "master_local", b.master_local);
    const std::uint64_t mirrors = b.num_mirrors();
    blocks_json += fmt::format(
        "    {{\"block\": {}, \"edges\": {}, \"copies\": {}, \"masters\": {}, \"mirrors\": {}, "
        "\"neighbors\": {}, \"reduce_send_rows\": {}, \"reduce_recv_rows\": {}}}{}\n",
        p, b.edge_ids.size(), b.vertices.size(), b.vertices.size() - mirrors, mirrors,
        b.neighbors.size(), b.mirror_local.size(), b.master_local.size(), p + 1 < k ? "," : "");
  }
  const LayoutSummary summary = summarize_layout(blocks);
  std::string json = manifest_head(options, "edge", blocks[0].n, blocks[0].m, k);
  json += "  \"features\": false,\n  \"features_source_dim\": 0,\n  \"labels\": false,\n";
  // A layer reduces mirrors into masters and broadcasts back: twice the mirror rows.
  json += predicted_json(
              summary, dim, options.bytes_per_value,
              fmt::format(", \"broadcast_rows_per_layer\": {}", summary.rows_per_layer).c_str()) +
          ",\n";
  json += "  \"blocks\": [\n" + blocks_json + "  ]\n}\n";
  write_text(staging.path() / "layout.json", json);
  staging.commit();
}

} // namespace gnnpart::io
