// Edge lists: lib/io's whole-file reader and lib/streaming's edge stream read the same bytes
// through one grammar, so they must agree on every input (the same message, or the same n and m);
// the --sorted stream and the vertex stream over the external sort must not crash.
#include "fuzz_input.h"
#include "io/graph_io.h"
#include "streaming/edge_stream.h"
#include "streaming/stream_source.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gnnpart;
  const std::string& path = fuzz::input_path(data, size);
  const bool one_based = size % 3 == 0; // both readers, both ways
  std::uint64_t n = 0;
  const std::string whole = fuzz::outcome([&] {
    const io::EdgeListData read = io::read_edge_list(path, {.one_based = one_based, .threads = 1});
    n = read.edges.n;
    return "n = " + std::to_string(read.edges.n) + ", m = " + std::to_string(read.edges.sources.size());
  });
  const std::string streamed = fuzz::outcome([&] {
    auto stream = streaming::open_edge_stream(path, streaming::StreamFormat::kEdgeList, one_based, 7);
    streaming::EdgeBatch batch;
    fuzz::drain(*stream, batch);
    return "n = " + std::to_string(stream->num_nodes()) + ", m = " + std::to_string(stream->num_edges());
  });
  fuzz::expect_same(whole, streamed, "edge list readers");
  // The vertex streams write n degree words: a header declaring millions of isolated vertices
  // rightly takes seconds, not a finding.
  if (whole.starts_with("error") || n > (1 << 20))
    return 0;
  fuzz::read_or_reject([&] {
    streaming::VertexStreamOptions options;
    options.format = streaming::StreamFormat::kEdgeList;
    options.one_based = one_based;
    options.sorted_input = size % 2 == 0;
    options.sort.temp_dir = "/tmp";
    streaming::VertexBatch batch;
    fuzz::drain(*streaming::open_vertex_stream(path, options).stream, batch);
  });
  return 0;
}
