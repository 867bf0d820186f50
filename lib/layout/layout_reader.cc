// Readers of layout directories (layout_io.h): the manifest and each block's arrays, checked
// against each other.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/npy.h"
#include "layout/json.h"
#include "layout/layout_io.h"

namespace gnnpart::io {

namespace fs = std::filesystem;
using layout::Json;
using layout::json_string;
using layout::json_uint;
using layout::parse_json;

LayoutManifest read_layout_manifest(const std::string& dir) {
  const std::string path = (fs::path(dir) / "layout.json").string();
  const Json root = parse_json(path, read_text_file(path));
  if (root.type != Json::Type::kObject)
    throw InputError(path, 1, "manifest is not an object");
  LayoutManifest m;
  m.format_version = static_cast<int>(json_uint(path, root, "format_version"));
  if (m.format_version != kLayoutFormatVersion) {
    throw InputError(path, 0,
                     "layout format version " + std::to_string(m.format_version) +
                         " (this build reads " + std::to_string(kLayoutFormatVersion) + ")");
  }
  m.kind = json_string(path, root, "kind");
  m.graph_name = json_string(path, root, "graph");
  m.model = json_string(path, root, "model");
  m.objective = json_string(path, root, "objective");
  m.n = static_cast<NodeID>(json_uint(path, root, "n"));
  m.m = json_uint(path, root, "m");
  m.k = static_cast<BlockID>(json_uint(path, root, "k"));
  const Json* features = root.find("features");
  m.has_features = features != nullptr && features->type == Json::Type::kBool && features->boolean;
  m.features_source_dim = static_cast<std::uint32_t>(json_uint(path, root, "features_source_dim"));
  const Json* labels = root.find("labels");
  m.has_labels = labels != nullptr && labels->type == Json::Type::kBool && labels->boolean;
  const Json* predicted = root.find("predicted");
  if (predicted == nullptr || predicted->type != Json::Type::kObject) {
    throw InputError(path, 0, "manifest lacks object \"predicted\"");
  }
  m.predicted_rows_per_layer = json_uint(path, *predicted, "rows_per_layer");
  m.predicted_bytes_per_layer = json_uint(path, *predicted, "bytes_per_layer");
  m.feature_dim = static_cast<std::uint32_t>(json_uint(path, *predicted, "feature_dim"));
  m.max_send_rows = json_uint(path, *predicted, "max_send_rows");
  m.max_recv_rows = json_uint(path, *predicted, "max_recv_rows");
  m.messages_per_layer = json_uint(path, *predicted, "messages_per_layer");
  const Json* minibatch = root.find("minibatch");
  if (minibatch != nullptr && minibatch->type == Json::Type::kObject) {
    m.minibatch_batch_size = static_cast<std::uint32_t>(json_uint(path, *minibatch, "batch_size"));
    const Json* rows = minibatch->find("predicted_rows_per_batch");
    if (rows == nullptr || rows->type != Json::Type::kNumber)
      throw InputError(path, 0, "manifest's \"minibatch\" lacks predicted_rows_per_batch");
    m.predicted_rows_per_batch = rows->number;
    if (const Json* fanouts = minibatch->find("fanouts");
        fanouts != nullptr && fanouts->type == Json::Type::kArray) {
      for (const Json& f : fanouts->items) {
        if (f.type != Json::Type::kNumber)
          throw InputError(path, f.line, "manifest's \"minibatch\" fanouts must be numbers");
        m.minibatch_fanouts.push_back(static_cast<int>(f.number));
      }
    }
  }
  if (m.k == 0)
    throw InputError(path, 0, "manifest has k = 0");
  return m;
}

namespace {

template <typename T>
std::vector<T> load_ids(const fs::path& dir, const char* name, bool optional = false) {
  const fs::path path = dir / fmt::format("{}.npy", name);
  if (optional && !fs::exists(path))
    return {};
  if constexpr (sizeof(T) == 4) {
    return read_npy_uint32(path.string());
  } else {
    return read_npy_uint64(path.string());
  }
}

void check(bool ok, const fs::path& dir, const char* name, const std::string& what) {
  if (!ok)
    throw InputError((dir / fmt::format("{}.npy", name)).string(), 0, what);
}

void check_lists(const fs::path& dir, const char* offsets_name, const std::vector<EdgeID>& offsets,
                 const char* list_name, const std::vector<NodeID>& list, std::size_t neighbors,
                 NodeID lo, NodeID hi) {
  check(offsets.size() == neighbors + 1 && offsets.front() == 0 && offsets.back() == list.size() &&
            std::is_sorted(offsets.begin(), offsets.end()),
        dir, offsets_name, "offsets do not match the neighbour list");
  for (NodeID l : list)
    check(l >= lo && l < hi, dir, list_name, "local id out of range");
}

// The manifest of a layout of `kind` with at least block + 1 blocks, and the block's folder.
std::pair<LayoutManifest, fs::path> open_block(const std::string& dir, const char* kind,
                                               BlockID block) {
  LayoutManifest manifest = read_layout_manifest(dir);
  if (manifest.kind != kind) {
    throw InputError((fs::path(dir) / "layout.json").string(), 0,
                     fmt::format("not a{} {} layout", kind[0] == 'e' ? "n" : "", kind));
  }
  if (block >= manifest.k) {
    throw InvalidParameter("layout has " + std::to_string(manifest.k) + " blocks, asked for " +
                           std::to_string(block));
  }
  return {std::move(manifest), fs::path(layout_block_dir(dir, block))};
}

} // namespace

LayoutPlan read_layout_plan(const std::string& dir, BlockID block) {
  const auto [manifest, bdir] = open_block(dir, "vertex", block);
  LayoutPlan plan;
  plan.block = block;
  plan.k = manifest.k;
  plan.n = manifest.n;
  plan.m = manifest.m;
  plan.owned = load_ids<NodeID>(bdir, "owned");
  plan.row_offsets = load_ids<EdgeID>(bdir, "row_offsets");
  plan.columns = load_ids<NodeID>(bdir, "columns");
  plan.halo = load_ids<NodeID>(bdir, "halo");
  plan.halo_owner = load_ids<BlockID>(bdir, "halo_owner");
  plan.degree = load_ids<NodeID>(bdir, "degree");
  plan.neighbors = load_ids<BlockID>(bdir, "neighbors");
  plan.send_offsets = load_ids<EdgeID>(bdir, "send_offsets");
  plan.send_local = load_ids<NodeID>(bdir, "send_local");
  plan.recv_offsets = load_ids<EdgeID>(bdir, "recv_offsets");
  plan.recv_local = load_ids<NodeID>(bdir, "recv_local");
  plan.train_local = load_ids<NodeID>(bdir, "train", true);
  plan.val_local = load_ids<NodeID>(bdir, "val", true);
  plan.test_local = load_ids<NodeID>(bdir, "test", true);
  if (fs::exists(bdir / "labels.npy"))
    plan.labels = read_npy_int64((bdir / "labels.npy").string());

  const NodeID own = plan.num_owned();
  for (NodeID u : plan.owned)
    check(u < plan.n, bdir, "owned", "global id >= n");
  for (NodeID u : plan.halo)
    check(u < plan.n, bdir, "halo", "global id >= n");
  check(plan.row_offsets.size() == own + std::size_t{1} && plan.row_offsets.front() == 0 &&
            plan.row_offsets.back() == plan.columns.size() &&
            std::is_sorted(plan.row_offsets.begin(), plan.row_offsets.end()),
        bdir, "row_offsets", "does not match owned.npy and columns.npy");
  for (NodeID c : plan.columns)
    check(c < plan.num_local(), bdir, "columns", "local id out of range");
  check(plan.halo_owner.size() == plan.halo.size(), bdir, "halo_owner", "size differs from halo");
  for (BlockID q : plan.halo_owner)
    check(q < plan.k && q != block, bdir, "halo_owner", "bad owner");
  check(plan.degree.size() == plan.num_local(), bdir, "degree", "expected one per local vertex");
  for (BlockID q : plan.neighbors)
    check(q < plan.k && q != block, bdir, "neighbors", "bad block");
  check_lists(bdir, "send_offsets", plan.send_offsets, "send_local", plan.send_local,
              plan.neighbors.size(), 0, own);
  check_lists(bdir, "recv_offsets", plan.recv_offsets, "recv_local", plan.recv_local,
              plan.neighbors.size(), own, plan.num_local());
  for (const auto* set : {&plan.train_local, &plan.val_local, &plan.test_local}) {
    for (NodeID l : *set)
      check(l < own, bdir, "train", "train/val/test local id out of range");
  }
  check(plan.labels.empty() || plan.labels.size() == own, bdir, "labels", "expected one per owned");
  return plan;
}

FeatureSlice read_feature_slice(const std::string& dir, BlockID block) {
  const LayoutManifest manifest = read_layout_manifest(dir);
  FeatureSlice slice;
  if (!manifest.has_features)
    return slice;
  const fs::path bdir = layout_block_dir(dir, block);
  slice.dim = manifest.features_source_dim;
  slice.offsets = load_ids<EdgeID>(bdir, "feat_offsets");
  slice.cols = read_npy_uint32((bdir / "feat_cols.npy").string());
  slice.values = read_npy_float32((bdir / "feat_values.npy").string());
  check(!slice.offsets.empty() && slice.offsets.front() == 0 &&
            slice.offsets.back() == slice.cols.size() && slice.cols.size() == slice.values.size() &&
            std::is_sorted(slice.offsets.begin(), slice.offsets.end()),
        bdir, "feat_offsets", "does not match feat_cols.npy / feat_values.npy");
  for (std::uint32_t c : slice.cols)
    check(c < slice.dim, bdir, "feat_cols", "column >= dim");
  return slice;
}

EdgeLayoutBlock read_edge_layout_block(const std::string& dir, BlockID block) {
  const auto [manifest, bdir] = open_block(dir, "edge", block);
  EdgeLayoutBlock b;
  b.block = block;
  b.k = manifest.k;
  b.n = manifest.n;
  b.m = manifest.m;
  b.vertices = load_ids<NodeID>(bdir, "vertices");
  b.master = load_ids<BlockID>(bdir, "master");
  b.degree = load_ids<NodeID>(bdir, "degree");
  b.edge_ids = load_ids<EdgeID>(bdir, "edge_ids");
  b.edge_src = load_ids<NodeID>(bdir, "edge_src");
  b.edge_dst = load_ids<NodeID>(bdir, "edge_dst");
  b.neighbors = load_ids<BlockID>(bdir, "neighbors");
  b.mirror_offsets = load_ids<EdgeID>(bdir, "mirror_offsets");
  b.mirror_local = load_ids<NodeID>(bdir, "mirror_local");
  b.master_offsets = load_ids<EdgeID>(bdir, "master_offsets");
  b.master_local = load_ids<NodeID>(bdir, "master_local");
  const NodeID copies = static_cast<NodeID>(b.vertices.size());
  check(b.master.size() == copies, bdir, "master", "expected one per vertex copy");
  check(b.degree.size() == copies, bdir, "degree", "expected one per vertex copy");
  check(b.edge_src.size() == b.edge_ids.size() && b.edge_dst.size() == b.edge_ids.size(), bdir,
        "edge_src", "edge arrays differ in length");
  for (NodeID l : b.edge_src)
    check(l < copies, bdir, "edge_src", "local id out of range");
  for (NodeID l : b.edge_dst)
    check(l < copies, bdir, "edge_dst", "local id out of range");
  for (BlockID q : b.master)
    check(q < b.k, bdir, "master", "block out of range");
  check_lists(bdir, "mirror_offsets", b.mirror_offsets, "mirror_local", b.mirror_local,
              b.neighbors.size(), 0, copies);
  check_lists(bdir, "master_offsets", b.master_offsets, "master_local", b.master_local,
              b.neighbors.size(), 0, copies);
  return b;
}

} // namespace gnnpart::io
