// Inputs that scripts/fuzz.sh found crashing or exhausting memory (tests/fixtures/fuzz, named
// TARGET_what.ext; el_gzip_bad_trailer.edges.gz sits with the malformed edge lists): each must
// now end in one InputError naming the file, in bounded memory.
#include <sys/resource.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/npy.h"
#include "streaming/edge_stream.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

const std::string kFuzz = std::string(GNNPART_SOURCE_DIR) + "/tests/fixtures/fuzz/";

std::string error_of(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename();
  try {
    if (name.starts_with("binary_stream_")) {
      VertexBatch batch;
      auto stream = open_binary_adjacency_stream(path);
      stream->begin_pass();
      while (stream->next_batch(batch)) {
      }
      stream->end_pass();
    } else if (name.starts_with("npy_")) {
      io::read_npy_float32(path);
    } else {
      ADD_FAILURE() << "no reader for " << name;
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(FuzzFindings, EachEndsInAnInputError) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFuzz)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    EXPECT_TRUE(error_of(path).starts_with(path + ": ")) << error_of(path);
    ++count;
  }
  EXPECT_GE(count, 2);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss / 1024, 256) << "MiB peak RSS";
}

} // namespace
} // namespace gnnpart::streaming
