// The streaming R-MAT generator writes the same bytes as the in-memory generator + writer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "stream_test_util.h"
#include "streaming/generator.h"
#include "streaming/rmat_stream.h"

namespace gnnpart::streaming {
namespace {

using namespace testing;

using test_files::read_text;

// The bytes of generate_to_file (binary format, no comments) with that much memory; the file is
// removed.
std::string streamed_bytes(const GeneratorOptions& options, std::size_t memory_bytes) {
  const std::string path = temp_path("streamed.bin");
  generate_to_file(options, path, GeneratedFormat::kBinary, {}, memory_bytes, "");
  std::string bytes = read_text(path);
  std::filesystem::remove(path);
  return bytes;
}

struct Case {
  NodeID n;
  EdgeID m;
  bool relabel;
  int threads;
  std::size_t memory_bytes;
};

TEST(RmatStream, SameFileAsInMemoryGenerator) {
  const std::vector<std::string> comments = {"generator: test"};
  // 64 KiB of memory: many buckets; 1000 vertices with 40000 edges: many duplicates, so
  // several rounds; 64 MiB: one bucket.
  for (const Case& c :
       {Case{1000, 40000, false, 1, 1 << 16}, Case{1000, 40000, true, 2, 1 << 16},
        Case{5000, 60000, true, 1, std::size_t{1} << 26}, Case{65536, 300000, true, 3, 1 << 20}}) {
    GeneratorOptions options;
    options.n = c.n;
    options.m = c.m;
    options.seed = 11;
    options.relabel = c.relabel;
    options.threads = c.threads;
    ASSERT_TRUE(can_stream_generation(options));
    const GeneratedGraph graph = generate_graph(options);
    for (const GeneratedFormat format :
         {GeneratedFormat::kBinary, GeneratedFormat::kEdgeList, GeneratedFormat::kAdjacency}) {
      SCOPED_TRACE(::testing::Message() << "n " << c.n << " relabel " << c.relabel << " threads "
                                        << c.threads << " format " << static_cast<int>(format));
      const std::string memory_path = temp_path("memory");
      const std::string stream_path = temp_path("stream");
      write_generated(graph, memory_path, format, comments, c.memory_bytes);
      const StreamedGeneration streamed =
          generate_to_file(options, stream_path, format, comments, c.memory_bytes, "");
      EXPECT_EQ(streamed.m, c.m);
      EXPECT_GE(streamed.draws, c.m);
      const std::string expected = read_text(memory_path);
      EXPECT_GT(expected.size(), c.m);
      EXPECT_EQ(read_text(stream_path), expected);
      if (c.memory_bytes == (1 << 16)) {
        EXPECT_GT(streamed.buckets, 4u);
        EXPECT_GT(streamed.rounds, 1u);
        EXPECT_GT(streamed.draws, c.m);
      }
      std::filesystem::remove(memory_path);
      std::filesystem::remove(stream_path);
    }
  }
}

// With 70000 vertices and seed 11 some row of the 2^17 matrix lies on a cycle of the label
// scramble without an id below n: the label walk never ended (the generator hung); such a
// draw is now made again, in both generators alike.
TEST(RmatStream, LabelCycleAboveNIsDrawnAgain) {
  GeneratorOptions options;
  options.n = 70000;
  options.m = 300000;
  options.seed = 11;
  options.relabel = true;
  const GeneratedGraph graph = generate_graph(options);
  ASSERT_EQ(graph.edges.size(), options.m);
  for (const std::uint64_t key : graph.edges)
    ASSERT_LT(key & 0xffffffffULL, options.n);
  const std::string memory_path = temp_path("memory.bin");
  write_generated(graph, memory_path, GeneratedFormat::kBinary);
  EXPECT_EQ(streamed_bytes(options, 1 << 20), read_text(memory_path));
  std::filesystem::remove(memory_path);
}

TEST(RmatStream, DeterministicAcrossThreadsAndMemory) {
  GeneratorOptions options;
  options.n = 16384; // a power of two: no cycle-walking of labels (rmat_draw.h)
  options.m = 150000;
  options.seed = 3;
  options.relabel = true;
  std::string first;
  for (const int threads : {1, 2, 4}) {
    for (const std::size_t memory : {std::size_t{1} << 16, std::size_t{1} << 24}) {
      options.threads = threads;
      const std::string bytes = streamed_bytes(options, memory);
      if (first.empty())
        first = bytes;
      EXPECT_EQ(bytes, first) << threads << " threads, " << memory << " B";
    }
  }
  options.seed = 4;
  EXPECT_NE(streamed_bytes(options, 1 << 20), first);
}

TEST(RmatStream, RejectsWhatCannotStreamAndLeavesNoFile) {
  GeneratorOptions options;
  options.n = 100;
  options.m = 200;
  options.hub_degree = 10;
  EXPECT_FALSE(can_stream_generation(options));
  const std::string path = temp_path("none.bin");
  EXPECT_THROW(generate_to_file(options, path, GeneratedFormat::kBinary, {}, 1 << 20, ""),
               InvalidParameter);
  options.hub_degree = 0;
  options.shuffle = true;
  EXPECT_FALSE(can_stream_generation(options));
  options.shuffle = false;
  options.kind = GeneratorKind::kGeometric;
  EXPECT_FALSE(can_stream_generation(options));
  options.kind = GeneratorKind::kRmat;
  options.m = 100 * 99 / 2; // beyond what sampling reaches
  EXPECT_THROW(generate_to_file(options, path, GeneratedFormat::kBinary, {}, 1 << 20, ""),
               InvalidParameter);
  EXPECT_FALSE(std::filesystem::exists(path));
}

// More than 4096 buckets would be needed to sort within the limit: a clear error, no file.
TEST(RmatStream, RejectsAMemoryLimitTooSmallForM) {
  GeneratorOptions options;
  options.n = 1 << 20;
  options.m = 4000000;
  options.threads = 1;
  const std::string path = temp_path("small_limit.bin");
  try {
    generate_to_file(options, path, GeneratedFormat::kBinary, {}, 1 << 10, "");
    ADD_FAILURE() << "no error";
  } catch (const InvalidParameter& error) {
    EXPECT_NE(std::string(error.what()).find("too small for 4000000 edges"), std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

} // namespace
} // namespace gnnpart::streaming
