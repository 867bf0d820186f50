// .npy files, sparse feature files and layout directories: round trips, malformed input,
// atomic replacement, and `gnnpart layout` end to end.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "../test_files.h"
#include "core/errors.h"
#include "core/graph_builder.h"
#include "core/random.h"
#include "io/features.h"
#include "layout/layout_io.h"
#include "io/npy.h"
#include "layout/layout_plan.h"

namespace gnnpart {
namespace {
namespace fs = std::filesystem;

class TempDir {
public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gnnpart_layout_test.XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

using test_files::write_text;

// Entries of a directory (the layout writer's staging directories would count).
int count_entries(const fs::path& dir) {
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir))
    entries += e.exists();
  return entries;
}

TEST(Npy, RoundTripsEveryType) {
  TempDir dir;
  const std::vector<std::int32_t> i32{0, -5, 2147483647};
  const std::vector<std::int64_t> i64{-1, 1LL << 40};
  const std::vector<float> f32{0.5f, -2.25f, 1e-3f, 7.0f, 8.0f, 9.0f};
  const std::vector<double> f64{3.141592653589793};
  io::write_npy(dir / "a.npy", std::span<const std::int32_t>(i32));
  io::write_npy(dir / "b.npy", std::span<const std::int64_t>(i64));
  io::write_npy(dir / "c.npy", std::span<const float>(f32), {2, 3});
  io::write_npy(dir / "d.npy", std::span<const double>(f64));
  io::NpyHeader header;
  EXPECT_EQ(io::read_npy_int64(dir / "a.npy", &header),
            (std::vector<std::int64_t>{0, -5, 2147483647}));
  EXPECT_EQ(header.type, io::NpyType::kInt32);
  EXPECT_EQ(io::read_npy_int64(dir / "b.npy"), i64);
  EXPECT_EQ(io::read_npy_float32(dir / "c.npy", &header), f32);
  EXPECT_EQ(header.shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(io::read_npy_float64(dir / "d.npy"), f64);
  // Headers are padded to 64 bytes, as numpy writes them.
  EXPECT_EQ((fs::file_size(dir / "a.npy") - 3 * 4) % 64, 0u);
  EXPECT_FALSE(fs::exists(dir / "a.npy.tmp"));
}

TEST(Npy, IdsNarrowWhenTheyFit) {
  TempDir dir;
  const std::vector<std::uint32_t> small{1, 2, 3};
  const std::vector<std::uint64_t> big{1, 1ULL << 33};
  io::write_npy_ids(dir / "s.npy", std::span<const std::uint32_t>(small));
  io::write_npy_ids(dir / "b.npy", std::span<const std::uint64_t>(big));
  io::NpyHeader header;
  EXPECT_EQ(io::read_npy_uint32(dir / "s.npy", &header), small);
  EXPECT_EQ(header.type, io::NpyType::kInt32);
  EXPECT_EQ(io::read_npy_uint64(dir / "b.npy", &header), big);
  EXPECT_EQ(header.type, io::NpyType::kInt64);
  EXPECT_THROW(io::read_npy_uint32(dir / "b.npy"), InputError); // 2^33 does not fit
}

TEST(Npy, MalformedFilesAreInputErrors) {
  TempDir dir;
  write_text(dir / "magic.npy", "not numpy at all");
  EXPECT_THROW(io::read_npy_int64(dir / "magic.npy"), InputError);
  const std::vector<double> values{1, 2, 3, 4};
  io::write_npy(dir / "f.npy", std::span<const double>(values));
  EXPECT_THROW(io::read_npy_int64(dir / "f.npy"), InputError); // floats are not ids
  const std::string full = dir / "f.npy";
  fs::resize_file(full, fs::file_size(full) - 5);
  EXPECT_THROW(io::read_npy_float64(full), InputError); // truncated
  std::string header = "\x93NUMPY\x01";
  header += '\0';
  const std::string dict = "{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }\n";
  header += static_cast<char>(dict.size());
  header += '\0';
  write_text(dir / "be.npy", header + dict + "abcd");
  EXPECT_THROW(io::read_npy_int64(dir / "be.npy"), InputError); // big-endian
  EXPECT_THROW(io::read_npy_int64(dir / "missing.npy"), InputError);
  const std::vector<std::int32_t> two{1, 2};
  EXPECT_THROW(io::write_npy(dir / "x.npy", std::span<const std::int32_t>(two), {3}),
               InvalidParameter);
}

TEST(Features, ReadsSparseRowsPlainAndGzip) {
  TempDir dir;
  const std::string text = "# rows: 4\n# cols: 5\n# nnz: 4\n0 1 1\n0 4 0.5\n2 0 2\n3 3 -1.25\n";
  write_text(dir / "f.txt", text);
  gzFile gz = gzopen((dir / "f.gz").c_str(), "wb");
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  for (const char* name : {"f.txt", "f.gz"}) {
    const io::SparseFeatures f = io::read_features(dir / name, 4);
    EXPECT_EQ(f.rows, 4u);
    EXPECT_EQ(f.cols, 5u);
    EXPECT_EQ(f.offsets, (std::vector<EdgeID>{0, 2, 2, 3, 4}));
    EXPECT_EQ(f.col_ids, (std::vector<std::uint32_t>{1, 4, 0, 3}));
    EXPECT_EQ(f.values, (std::vector<float>{1, 0.5f, 2, -1.25f}));
  }
  const io::SparseFeatures f = io::read_features(dir / "f.txt");
  const std::vector<NodeID> rows{3, 0};
  const FeatureSlice slice = io::slice_features(f, rows);
  EXPECT_EQ(slice.dim, 5u);
  EXPECT_EQ(slice.offsets, (std::vector<EdgeID>{0, 1, 3}));
  EXPECT_EQ(slice.cols, (std::vector<std::uint32_t>{3, 1, 4}));
}

TEST(Features, MalformedLinesNameFileAndLine) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::uint64_t>> cases = {
      {"# rows: 3\n0 1 1\n1 x 1\n", 3},     // not a number
      {"# rows: 3\n# cols: 2\n0 2 1\n", 3}, // column out of range
      {"0 1 1\n5 0 1\n", 2},                // row >= n
      {"0 1 1\n0 1 2\n", 2},                // repeated entry
      {"0 1 1 7\n", 1},                     // trailing field
  };
  for (const auto& [text, line] : cases) {
    write_text(dir / "bad.txt", text);
    try {
      io::read_features(dir / "bad.txt", 3);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), line) << text;
      EXPECT_EQ(e.file(), dir / "bad.txt");
    }
  }
  write_text(dir / "rows.txt", "# rows: 4\n0 0 1\n");
  EXPECT_THROW(io::read_features(dir / "rows.txt", 3), InputError); // header disagrees
}

CsrGraph small_graph() {
  EdgeList list;
  list.n = 30;
  Rng rng(17);
  for (int e = 0; e < 70; ++e) {
    list.sources.push_back(static_cast<NodeID>(rng.below(30)));
    list.targets.push_back(static_cast<NodeID>(rng.below(30)));
  }
  return build_csr(list);
}

TEST(LayoutIo, VertexLayoutRoundTrip) {
  TempDir dir;
  const CsrGraph graph = small_graph();
  Partition partition{3, {}};
  for (NodeID u = 0; u < 30; ++u)
    partition.blocks.push_back(u % 3);
  auto plans = build_layout_plans(graph, partition);
  VertexSets sets;
  sets.train = {0, 1, 2, 3};
  sets.test = {29};
  for (NodeID u = 0; u < 30; ++u)
    sets.labels.push_back(u % 4);
  attach_vertex_sets(plans, sets);
  io::SparseFeatures features;
  features.rows = 30;
  features.cols = 3;
  for (NodeID u = 0; u < 30; ++u) {
    features.col_ids.push_back(u % 3);
    features.values.push_back(static_cast<float>(u));
    features.offsets.push_back(u);
  }
  features.offsets.push_back(30);
  std::vector<FeatureSlice> slices;
  for (const auto& plan : plans)
    slices.push_back(io::slice_features(features, plan.owned));
  io::LayoutWriteOptions options;
  options.graph_name = "small \"one\"";
  options.feature_dim = 8;
  options.batch_size = 16;
  options.fanouts = {25, -1};
  options.predicted_rows_per_batch = 7.5;
  const std::string out = dir / "layout";
  io::write_layout_directory(out, plans, partition, slices, options);

  const io::LayoutManifest m = io::read_layout_manifest(out);
  EXPECT_EQ(m.kind, "vertex");
  EXPECT_EQ(m.graph_name, "small \"one\"");
  EXPECT_EQ(m.k, 3u);
  EXPECT_EQ(m.n, 30u);
  EXPECT_EQ(m.m, graph.num_edges());
  EXPECT_TRUE(m.has_features);
  EXPECT_TRUE(m.has_labels);
  EXPECT_EQ(m.features_source_dim, 3u);
  // The mini-batch prediction with its fanouts (hop 1 first, -1 = all neighbours).
  EXPECT_EQ(m.minibatch_batch_size, 16u);
  EXPECT_EQ(m.minibatch_fanouts, (std::vector<int>{25, -1}));
  EXPECT_DOUBLE_EQ(m.predicted_rows_per_batch, 7.5);
  const LayoutSummary summary = summarize_layout(plans);
  EXPECT_EQ(m.predicted_rows_per_layer, summary.rows_per_layer);
  EXPECT_EQ(m.predicted_bytes_per_layer, summary.rows_per_layer * 8 * 4);
  EXPECT_EQ(m.messages_per_layer, summary.messages);
  for (BlockID p = 0; p < 3; ++p) {
    const LayoutPlan back = io::read_layout_plan(out, p);
    EXPECT_EQ(back.owned, plans[p].owned);
    EXPECT_EQ(back.row_offsets, plans[p].row_offsets);
    EXPECT_EQ(back.columns, plans[p].columns);
    EXPECT_EQ(back.halo, plans[p].halo);
    EXPECT_EQ(back.halo_owner, plans[p].halo_owner);
    EXPECT_EQ(back.degree, plans[p].degree);
    EXPECT_EQ(back.neighbors, plans[p].neighbors);
    EXPECT_EQ(back.send_offsets, plans[p].send_offsets);
    EXPECT_EQ(back.send_local, plans[p].send_local);
    EXPECT_EQ(back.recv_offsets, plans[p].recv_offsets);
    EXPECT_EQ(back.recv_local, plans[p].recv_local);
    EXPECT_EQ(back.train_local, plans[p].train_local);
    EXPECT_EQ(back.test_local, plans[p].test_local);
    EXPECT_EQ(back.labels, plans[p].labels);
    const FeatureSlice f = io::read_feature_slice(out, p);
    EXPECT_EQ(f.dim, 3u);
    EXPECT_EQ(f.offsets, slices[p].offsets);
    EXPECT_EQ(f.cols, slices[p].cols);
    EXPECT_EQ(f.values, slices[p].values);
  }
  // The gpmetis-style assignment file.
  std::ifstream assignment(out + "/assignment.txt");
  for (NodeID u = 0; u < 30; ++u) {
    BlockID b = 99;
    assignment >> b;
    EXPECT_EQ(b, u % 3);
  }
  EXPECT_THROW(io::read_layout_plan(out, 3), InvalidParameter);
}

TEST(LayoutIo, ReplacesLayoutsAtomicallyAndRefusesOtherDirectories) {
  TempDir dir;
  const CsrGraph graph = small_graph();
  Partition two{2, std::vector<BlockID>(30, 0)};
  for (NodeID u = 15; u < 30; ++u)
    two.blocks[u] = 1;
  Partition three{3, {}};
  for (NodeID u = 0; u < 30; ++u)
    three.blocks.push_back(u / 10);
  const std::string out = dir / "layout";
  io::write_layout_directory(out, build_layout_plans(graph, two), two, {}, {});
  io::write_layout_directory(out, build_layout_plans(graph, three), three, {}, {});
  EXPECT_EQ(io::read_layout_manifest(out).k, 3u);
  EXPECT_FALSE(fs::exists(out + "/part3"));
  EXPECT_FALSE(io::read_layout_manifest(out).has_features);
  EXPECT_TRUE(io::read_feature_slice(out, 0).offsets.empty());
  // Nothing but the layout is left beside it.
  EXPECT_EQ(count_entries(dir.path()), 1);
  // A directory that is not a layout is never replaced.
  fs::create_directory(dir / "precious");
  write_text(dir / "precious/data.txt", "keep me");
  EXPECT_THROW(
      io::write_layout_directory(dir / "precious", build_layout_plans(graph, two), two, {}, {}),
      InvalidParameter);
  EXPECT_TRUE(fs::exists(dir / "precious/data.txt"));
  EXPECT_EQ(count_entries(dir.path()), 2); // no DIR.tmp.* left behind
}

TEST(LayoutIo, CorruptLayoutsAreInputErrors) {
  TempDir dir;
  const CsrGraph graph = small_graph();
  Partition two{2, std::vector<BlockID>(30, 0)};
  for (NodeID u = 10; u < 30; ++u)
    two.blocks[u] = 1;
  const std::string out = dir / "layout";
  io::write_layout_directory(out, build_layout_plans(graph, two), two, {}, {});
  // A send list pointing past the owned rows.
  const std::vector<std::int32_t> bad{0, 1000};
  io::write_npy(out + "/part0/send_local.npy", std::span<const std::int32_t>(bad));
  EXPECT_THROW(io::read_layout_plan(out, 0), InputError);
  write_text(out + "/layout.json", "{\"format_version\": 1, \"kind\": ");
  EXPECT_THROW(io::read_layout_manifest(out), InputError);
  write_text(out + "/layout.json", "{\"format_version\": 99}");
  EXPECT_THROW(io::read_layout_manifest(out), InputError);
}

TEST(EdgeLayoutIo, RoundTrip) {
  TempDir dir;
  const std::vector<NodeID> src{0, 1, 2, 3, 0}, dst{1, 2, 3, 0, 2};
  const std::vector<BlockID> eb{0, 1, 1, 0, 1};
  const auto blocks = build_edge_layout(4, src, dst, eb, 2);
  io::LayoutWriteOptions options;
  options.graph_name = "square";
  io::write_edge_layout_directory(dir / "e", blocks, options);
  const io::LayoutManifest m = io::read_layout_manifest(dir / "e");
  EXPECT_EQ(m.kind, "edge");
  EXPECT_EQ(m.predicted_rows_per_layer,
            summarize_layout(std::span<const EdgeLayoutBlock>(blocks)).rows_per_layer);
  for (BlockID p = 0; p < 2; ++p) {
    const EdgeLayoutBlock back = io::read_edge_layout_block(dir / "e", p);
    EXPECT_EQ(back.vertices, blocks[p].vertices);
    EXPECT_EQ(back.master, blocks[p].master);
    EXPECT_EQ(back.edge_ids, blocks[p].edge_ids);
    EXPECT_EQ(back.edge_src, blocks[p].edge_src);
    EXPECT_EQ(back.mirror_local, blocks[p].mirror_local);
    EXPECT_EQ(back.master_local, blocks[p].master_local);
  }
  EXPECT_THROW(io::read_layout_plan(dir / "e", 0), InputError); // not a vertex layout
}

// The CLI end to end on a real graph: rows per layer in layout.json = comm volume reported by
// the independent checker.
TEST(LayoutCli, CoraLayoutMatchesEvalpart) {
  const std::string shared = GNNPART_SHARED_DIR "/datasets/";
  if (!fs::exists(shared + "cora.edges.gz"))
    FAIL() << "../shared/datasets is required beside the project (" << shared << ")";
  TempDir dir;
  const std::string part = dir / "cora.part";
  const std::string cmd =
      std::string(GNNPART_BINARY) + " partition " + shared + "cora.edges.gz -k 4 --algo metis -o " +
      part + " --quiet && " + GNNPART_BINARY + " layout " + shared + "cora.edges.gz " + part +
      " -o " + (dir / "lay") + " --labels " + shared + "cora.labels.gz --train " + shared +
      "cora.train.gz --features " + shared + "cora.features.gz --quiet";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const io::LayoutManifest m = io::read_layout_manifest(dir / "lay");
  EXPECT_EQ(m.n, 2708u);
  EXPECT_EQ(m.k, 4u);
  EXPECT_EQ(m.features_source_dim, 1433u);
  std::uint64_t train = 0, features = 0;
  for (BlockID p = 0; p < 4; ++p) {
    train += io::read_layout_plan(dir / "lay", p).train_local.size();
    features += io::read_feature_slice(dir / "lay", p).values.size();
  }
  EXPECT_EQ(train, 140u);
  EXPECT_EQ(features, 49216u);
  if (std::string(EVALPART_BINARY).empty())
    return;
  const std::string eval = std::string(EVALPART_BINARY) + " " + shared + "cora.edges.gz " + part +
                           " > " + (dir / "eval.txt");
  ASSERT_EQ(std::system(eval.c_str()), 0);
  const std::string text = test_files::read_text(dir / "eval.txt");
  EXPECT_NE(text.find("\"comm_volume\": " + std::to_string(m.predicted_rows_per_layer) + ","),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"num_comm_pairs\": " + std::to_string(m.messages_per_layer) + ","),
            std::string::npos)
      << text;
}

TEST(LayoutCli, BadInputFailsWithoutPartialOutput) {
  TempDir dir;
  write_text(dir / "g.edges", "0 1\n1 2\n2 3\n");
  write_text(dir / "short.part", "0\n1\n");
  write_text(dir / "bad.feat", "0 0 1\n9 0 1\n");
  write_text(dir / "ok.part", "0\n0\n1\n1\n");
  const std::string base = std::string(GNNPART_BINARY) + " layout " + (dir / "g.edges") + " ";
  const std::string quiet = " -o " + (dir / "out") + " --quiet 2> " + (dir / "err.txt");
  EXPECT_NE(std::system((base + (dir / "short.part") + quiet).c_str()), 0);
  EXPECT_NE(
      std::system((base + (dir / "ok.part") + " --features " + (dir / "bad.feat") + quiet).c_str()),
      0);
  const std::string text = test_files::read_text(dir / "err.txt");
  EXPECT_NE(text.find("bad.feat:2:"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(dir / "out"));
  for (const auto& e : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename().string().find("out."), std::string::npos) << e.path();
  }
  ASSERT_EQ(std::system((base + (dir / "ok.part") + quiet).c_str()), 0);
  EXPECT_EQ(io::read_layout_manifest(dir / "out").predicted_rows_per_layer, 2u);
}

} // namespace
} // namespace gnnpart
