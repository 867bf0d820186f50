#include "io/layout_io.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "io/json_reader.h"
#include "io/npy.h"

namespace gnnpart::io {
namespace fs = std::filesystem;
namespace {

std::uint64_t json_uint(const std::string& path, const Json& object, const std::string& key,
                        bool required = true) {
  const Json* v = object.find(key);
  if (v == nullptr) {
    if (!required)
      return 0;
    throw InputError(path, 0, "manifest lacks \"" + key + "\"");
  }
  if (v->type != Json::Type::kNumber || v->text.find_first_of(".eE-") != std::string::npos) {
    throw InputError(path, 0, "manifest \"" + key + "\" is not a non-negative integer");
  }
  return std::stoull(v->text);
}

std::string json_string(const std::string& path, const Json& object, const std::string& key) {
  const Json* v = object.find(key);
  if (v == nullptr || v->type != Json::Type::kString) {
    throw InputError(path, 0, "manifest lacks string \"" + key + "\"");
  }
  return v->text;
}

// ---- Atomic directory writing. ----
class StagingDir {
public:
  explicit StagingDir(const std::string& target) : target_(fs::path(target)) {
    if (target_.filename().empty())
      target_ = target_.parent_path();
    const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec)
      throw SystemError(parent.string() + ": cannot create directory: " + ec.message());
    std::string pattern = target_.string() + ".tmp.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw SystemError(pattern + ": cannot create directory: " + std::strerror(errno));
    }
    tmp_ = pattern;
  }
  ~StagingDir() {
    if (!committed_) {
      std::error_code ec;
      fs::remove_all(tmp_, ec);
    }
  }
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const fs::path& path() const { return tmp_; }

  void commit() {
    std::error_code ec;
    fs::permissions(tmp_,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
    if (fs::exists(target_)) {
      const bool replaceable = fs::is_directory(target_) &&
                               (fs::is_empty(target_) || fs::exists(target_ / "layout.json"));
      if (!replaceable) {
        throw InvalidParameter(target_.string() +
                               ": exists and is not a layout directory; not replacing it");
      }
      fs::path old = target_.string() + ".old.XXXXXX";
      std::string pattern = old.string();
      if (mkdtemp(pattern.data()) == nullptr) {
        throw SystemError(pattern + ": cannot create directory: " + std::strerror(errno));
      }
      fs::remove(pattern);
      fs::rename(target_, pattern, ec);
      if (ec)
        throw SystemError(target_.string() + ": cannot move aside: " + ec.message());
      fs::rename(tmp_, target_, ec);
      if (ec) {
        std::error_code ignored;
        fs::rename(pattern, target_, ignored);
        throw SystemError(target_.string() + ": cannot rename into place: " + ec.message());
      }
      fs::remove_all(pattern, ec);
    } else {
      fs::rename(tmp_, target_, ec);
      if (ec)
        throw SystemError(target_.string() + ": cannot rename into place: " + ec.message());
    }
    committed_ = true;
  }

private:
  fs::path target_;
  fs::path tmp_;
  bool committed_ = false;
};

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw SystemError(path.string() + ": cannot open for writing");
  out << text;
  out.close();
  if (!out)
    throw SystemError(path.string() + ": write failed");
}

fs::path make_block_dir(const fs::path& root, BlockID p) {
  const fs::path dir = root / fmt::format("part{}", p);
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec)
    throw SystemError(dir.string() + ": cannot create directory: " + ec.message());
  return dir;
}

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

} // namespace

LayoutPlan read_layout_plan(const std::string& dir, BlockID block) {
  const LayoutManifest manifest = read_layout_manifest(dir);
  if (manifest.kind != "vertex") {
    throw InputError((fs::path(dir) / "layout.json").string(), 0, "not a vertex layout");
  }
  if (block >= manifest.k) {
    throw InvalidParameter("layout has " + std::to_string(manifest.k) + " blocks, asked for " +
                           std::to_string(block));
  }
  const fs::path bdir = layout_block_dir(dir, block);
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
  const LayoutManifest manifest = read_layout_manifest(dir);
  if (manifest.kind != "edge") {
    throw InputError((fs::path(dir) / "layout.json").string(), 0, "not an edge layout");
  }
  if (block >= manifest.k) {
    throw InvalidParameter("layout has " + std::to_string(manifest.k) + " blocks, asked for " +
                           std::to_string(block));
  }
  const fs::path bdir = layout_block_dir(dir, block);
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
