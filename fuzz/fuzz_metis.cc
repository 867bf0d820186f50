// METIS files: lib/io's whole-file reader and lib/streaming's METIS stream read the same bytes
// through one grammar, so they must agree on every input (the same message, or the same n, m).
#include "fuzz_input.h"
#include "io/graph_io.h"
#include "streaming/vertex_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gnnpart;
  const std::string& path = fuzz::input_path(data, size);
  const std::string whole = fuzz::outcome([&] {
    const CsrGraph graph = io::read_metis(path, {.threads = 1});
    return "n = " + std::to_string(graph.num_nodes()) + ", m = " + std::to_string(graph.num_edges());
  });
  const std::string streamed = fuzz::outcome([&] {
    auto stream = streaming::open_metis_stream(path, 5);
    streaming::VertexBatch batch;
    fuzz::drain(*stream, batch);
    return "n = " + std::to_string(stream->num_nodes()) + ", m = " + std::to_string(stream->num_edges());
  });
  fuzz::expect_same(whole, streamed, "METIS readers");
  return 0;
}
