// lib/export: DistDGL assignment files and the export's partition input.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "../test_files.h"
#include "core/errors.h"
#include "export/distdgl_export.h"
#include "export/export_source.h"

namespace gnnpart {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gnnpart_export_test.XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

using test_files::read_text;

Partition make_partition(std::vector<BlockID> blocks, BlockID k) {
  Partition p;
  p.blocks = std::move(blocks);
  p.k = k;
  return p;
}

TEST(DistDglExport, WritesOneIdPerLineAndTheMetaDglAccepts) {
  TempDir tmp;
  const fs::path out = tmp.path / "parts";
  exporting::write_distdgl_partition(make_partition({0, 2, 1, 1, 0}, 3), out.string());
  EXPECT_EQ(read_text(out / "_N.txt"), "0\n2\n1\n1\n0\n");
  const std::string meta = read_text(out / "partition_meta.json");
  // tools/partition_algo/base.py load_partition_meta: version 1.0.0, num_parts > 0, algo_name
  // random or metis.
  EXPECT_NE(meta.find("\"num_parts\": 3"), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"version\": \"1.0.0\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"algo_name\": \"metis\""), std::string::npos) << meta;
  EXPECT_EQ(meta, exporting::distdgl_partition_meta(3));
}

TEST(DistDglExport, NodeTypeNamesTheFileAndMustBeAPlainName) {
  TempDir tmp;
  exporting::write_distdgl_partition(make_partition({1, 0}, 2), tmp.path.string(), "paper");
  EXPECT_EQ(read_text(tmp.path / "paper.txt"), "1\n0\n");
  for (const char* bad : {"", "a/b", "..", "."}) {
    const fs::path out = tmp.path / "bad";
    EXPECT_THROW(exporting::write_distdgl_partition(make_partition({0}, 1), out.string(), bad),
                 InvalidParameter)
        << bad;
    EXPECT_FALSE(fs::exists(out / "partition_meta.json"));
  }
}

TEST(ExportSource, ReadsPartitionFilesWithOrWithoutTheLastNewline) {
  TempDir tmp;
  std::ofstream(tmp.path / "a.part") << "0\n1\n1\n";
  std::ofstream(tmp.path / "b.part") << "0\n1\n1";
  for (const char* name : {"a.part", "b.part"}) {
    const Partition p = exporting::read_assignment((tmp.path / name).string());
    EXPECT_EQ(p.blocks, (std::vector<BlockID>{0, 1, 1})) << name;
    EXPECT_EQ(p.k, 2u);
  }
  EXPECT_EQ(exporting::read_assignment((tmp.path / "a.part").string(), 4).k, 4u);
  EXPECT_FALSE(exporting::is_layout_directory(tmp.path.string()));
}

TEST(ExportSource, BadLinesNameFileAndLine) {
  TempDir tmp;
  const fs::path path = tmp.path / "bad.part";
  std::ofstream(path) << "0\n1\nx\n";
  try {
    exporting::read_assignment(path.string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ":3"), std::string::npos) << e.what();
  }
  std::ofstream(tmp.path / "big.part") << "0\n5\n";
  EXPECT_THROW(exporting::read_assignment((tmp.path / "big.part").string(), 2), InputError);
}

} // namespace
} // namespace gnnpart
