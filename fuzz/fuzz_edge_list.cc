// Edge lists: lib/io's whole-file reader and lib/streaming's edge stream read the same bytes
// through one grammar, so they must agree on every input (the same message, or the same n and m);
// the --sorted stream and the vertex stream over the external sort must not crash.
#include "fuzz_input.h"
#include "io/graph_io.h"
#include "streaming/edge_stream.h"
#include "streaming/stream_source.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  const bool one_based = size > 0 && data[size - 1] == '\n' && size % 3 == 0;
  io::ReadOptions options;
  options.threads = 1;
  options.one_based = one_based;
  const std::string whole = fuzz::outcome([&] {
    const io::EdgeListData read = io::read_edge_list(path, options);
    return "n = " + std::to_string(read.edges.n) + ", m = " + std::to_string(read.edges.sources.size());
  });
  const std::string streamed = fuzz::outcome([&] {
    auto stream = streaming::open_edge_stream(path, streaming::StreamFormat::kEdgeList, one_based, 7);
    streaming::EdgeBatch batch;
    stream->begin_pass();
    while (stream->next_batch(batch)) {
    }
    stream->end_pass();
    return "n = " + std::to_string(stream->num_nodes()) + ", m = " + std::to_string(stream->num_edges());
  });
  fuzz::expect_same(whole, streamed, "edge list readers");
  if (whole.starts_with("error"))
    return 0;
  fuzz::outcome([&] {
    streaming::VertexStreamOptions vertex_options;
    vertex_options.format = streaming::StreamFormat::kEdgeList;
    vertex_options.one_based = one_based;
    vertex_options.sorted_input = size % 2 == 0;
    auto opened = streaming::open_vertex_stream(path, vertex_options);
    streaming::VertexBatch batch;
    opened.stream->begin_pass();
    while (opened.stream->next_batch(batch)) {
    }
    opened.stream->end_pass();
    return std::string();
  });
  return 0;
}
