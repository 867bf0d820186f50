// The text rules of io/text_input.h on both byte readers (lib/io's whole-file InputBuffer and
// lib/streaming's LineReader): binary input fails early in bounded memory, a UTF-8 byte-order
// mark is skipped, over-long lines are refused, non-printable bytes are escaped in messages.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/text_parsing.h"
#include "streaming/edge_stream.h"
#include "streaming/file_source.h"
#include "stream_test_util.h"

namespace gnnpart::streaming {
namespace {

using testing::temp_path;
using testing::write_text;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string fixture(const std::string& name) {
  return std::string(GNNPART_SOURCE_DIR) + "/tests/fixtures/" + name;
}

void drain(EdgeStream& stream) {
  EdgeBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
  }
  stream.end_pass();
}

// Both paths, one message.
void expect_both(const std::string& path, const std::string& expected) {
  SCOPED_TRACE(path);
  EXPECT_EQ(error_of([&] { io::read_edge_list(path); }), expected);
  EXPECT_EQ(error_of([&] { drain(*open_edge_stream(path, StreamFormat::kEdgeList)); }), expected);
}

TEST(TextInput, NulByteIsBinaryInput) {
  const std::string path = fixture("malformed/el_binary.el");
  expect_both(path, path + ":3: " + io::binary_input_message());
  const std::string metis = fixture("malformed/metis_binary.graph");
  EXPECT_EQ(error_of([&] { io::read_metis(metis); }), metis + ":5: " + io::binary_input_message());
  EXPECT_EQ(error_of([&] { drain(*open_edge_stream(metis, StreamFormat::kMetis)); }),
            metis + ":5: " + io::binary_input_message());
}

TEST(TextInput, NulByteInsideGzip) {
  const std::string path = temp_path("bin.el.gz");
  gzFile gz = gzopen(path.c_str(), "wb");
  const std::string text("0 1\n1 2\n\0\0garbage", 17);
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  expect_both(path, path + ":3: " + io::binary_input_message());
}

// Past the sniffed prefix a NUL is a bad token like any other, escaped in the message.
TEST(TextInput, LateNulIsABadToken) {
  std::string text;
  while (text.size() < io::kSniffBytes + 100)
    text += "0 1\n";
  const std::uint64_t line = text.size() / 4 + 1;
  text += std::string("2 \0\n", 4);
  const std::string path = temp_path("late.el");
  write_text(path, text);
  expect_both(path, path + ":" + std::to_string(line) +
                        ": expected a target vertex id, found '\\x00'");
}

TEST(TextInput, ControlBytesAreEscaped) {
  const std::string path = fixture("malformed/el_control_bytes.el");
  expect_both(path, path + ":2: expected a target vertex id, found '\\x01\\x7f\\xff'");
}

TEST(TextInput, ByteOrderMarkIsSkipped) {
  const std::string path = fixture("tiny/tiny_bom.el");
  const io::EdgeListData data = io::read_edge_list(path);
  EXPECT_EQ(data.edges.n, 3u);
  EXPECT_EQ(data.edges.sources.size(), 2u);
  auto stream = open_edge_stream(path, StreamFormat::kEdgeList);
  drain(*stream);
  EXPECT_EQ(stream->num_nodes(), 3u);
  EXPECT_EQ(stream->num_edges(), 2u);
  EXPECT_EQ(io::read_metis(fixture("tiny/tiny_bom.graph")).num_edges(), 2u);
  // Only at the very start: inside the file it is a bad token.
  const std::string inside = fixture("malformed/metis_bom_inside.graph");
  EXPECT_EQ(error_of([&] { io::read_metis(inside); }),
            inside + ":2: expected a neighbour id, found '\\xef\\xbb\\xbf2'");
}

TEST(TextInput, LongLines) {
  const std::string path = temp_path("long.el");
  write_text(path, "0 1\n" + std::string(300, '7') + " 1\n2 3\n");
  // The whole-file reader: the first line longer than the limit.
  std::string data = "0 1\n" + std::string(300, '7') + " 1\n2 3\n";
  const io::detail::ParseFailure f =
      io::detail::first_long_line(data, {0, data.size()}, 100);
  ASSERT_TRUE(f.failed());
  EXPECT_EQ(f.offset, 4u);
  EXPECT_FALSE(io::detail::first_long_line(data, {0, data.size()}, 400).failed());
  // The line reader: the same rule, its buffer never past the limit.
  FileSource source(path);
  LineReader lines(source, 1 << 16, 100);
  std::string_view line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(error_of([&] { lines.next(line); }), path + ":2: " + io::long_line_message(100));
  // Without a newline at all (the last line), past the first buffer.
  write_text(path, std::string(200000, 'x'));
  FileSource source2(path);
  LineReader lines2(source2, 1 << 16, 100000);
  EXPECT_EQ(error_of([&] { lines2.next(line); }), path + ":1: " + io::long_line_message(100000));
}

long peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

// A 2 GB file of zeros (sparse: no disk) fails at FILE:1 on both paths without being read whole.
TEST(TextInput, TwoGigabytesOfZerosFailAtLineOneInBoundedMemory) {
  const std::string path = temp_path("zeros.el");
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, std::int64_t{2} << 30), 0);
  ::close(fd);
  const long before = peak_rss_mib();
  expect_both(path, path + ":1: " + io::binary_input_message());
  EXPECT_EQ(error_of([&] { io::read_metis(path); }), path + ":1: " + io::binary_input_message());
  EXPECT_LT(peak_rss_mib() - before, 64) << "MiB of peak RSS added";
  std::filesystem::remove(path);
}

} // namespace
} // namespace gnnpart::streaming
