// Binary CSR cache: exact round trip, and every kind of damage is detected.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "io/binary_cache.h"
#include "io/graph_io.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::ScratchDir;
using testing::tiny_graph;

void patch_byte(const std::string& path, std::size_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x10));
}

TEST(IoBinary, RoundTripEveryWeightCombination) {
  ScratchDir dir;
  for (const bool ew : {false, true})
    for (const bool vw : {false, true}) {
      const CsrGraph g = tiny_graph(ew, vw);
      write_binary_graph(g, dir.file("t.gnnp"));
      testing::expect_same_graph(read_binary_graph(dir.file("t.gnnp")), g);
    }
  const CsrGraph multi = read_graph(testing::fixture("tiny/tiny_ncon2.graph"));
  write_binary_graph(multi, dir.file("m.gnnp"));
  testing::expect_same_graph(read_graph(dir.file("m.gnnp")), multi);
  EXPECT_TRUE(is_binary_graph_file(dir.file("m.gnnp")));
  EXPECT_FALSE(is_binary_graph_file(testing::fixture("tiny/tiny.graph")));
}

TEST(IoBinary, EmptyGraph) {
  ScratchDir dir;
  write_binary_graph(CsrGraph(), dir.file("e.gnnp"));
  EXPECT_EQ(read_binary_graph(dir.file("e.gnnp")).num_nodes(), 0u);
}

TEST(IoBinary, CorruptPayloadFailsTheChecksum) {
  ScratchDir dir;
  const std::string path = dir.file("t.gnnp");
  write_binary_graph(tiny_graph(), path);
  const std::size_t size = std::filesystem::file_size(path);
  for (const std::size_t offset :
       {std::size_t{64 + 8 * 3}, std::size_t{64 + 9 * 8 + 5}, size - 1}) {
    write_binary_graph(tiny_graph(), path);
    patch_byte(path, offset);
    testing::expect_input_error([&] { read_binary_graph(path); }, path + ": ", "checksum mismatch");
  }
}

TEST(IoBinary, TruncatedAndForeignFiles) {
  ScratchDir dir;
  const std::string path = dir.file("t.gnnp");
  write_binary_graph(tiny_graph(), path);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 8);
  testing::expect_input_error([&] { read_binary_graph(path); }, path + ": ", "truncated");
  write_binary_graph(tiny_graph(), path);
  patch_byte(path, 8); // version
  testing::expect_input_error([&] { read_binary_graph(path); }, path + ": ", "version");
  write_binary_graph(tiny_graph(), path);
  patch_byte(path, 0); // magic
  testing::expect_input_error([&] { read_binary_graph(path); }, path + ": ", "bad magic");
}

TEST(IoBinary, HashDependsOnEveryByteAndSeed) {
  std::vector<unsigned char> bytes(10000);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<unsigned char>(i * 7);
  const std::uint64_t h = payload_hash(bytes.data(), bytes.size(), 1);
  EXPECT_EQ(h, payload_hash(bytes.data(), bytes.size(), 1));
  EXPECT_NE(h, payload_hash(bytes.data(), bytes.size(), 2));
  EXPECT_NE(h, payload_hash(bytes.data(), bytes.size() - 1, 1));
  for (const std::size_t i : {std::size_t{0}, std::size_t{31}, std::size_t{9999}}) {
    bytes[i] ^= 1;
    EXPECT_NE(h, payload_hash(bytes.data(), bytes.size(), 1)) << i;
    bytes[i] ^= 1;
  }
}

} // namespace
} // namespace gnnpart::io
