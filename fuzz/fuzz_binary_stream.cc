// The streaming binary formats (edge stream and adjacency stream of gnnpart generate / the
// external sort): a damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "streaming/edge_stream.h"
#include "streaming/vertex_stream.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  fuzz::outcome([&] {
    auto stream = streaming::open_edge_stream(path, streaming::StreamFormat::kBinary, false, 7);
    streaming::EdgeBatch batch;
    stream->begin_pass();
    while (stream->next_batch(batch)) {
    }
    stream->end_pass();
    return std::string();
  });
  fuzz::outcome([&] {
    auto stream = streaming::open_binary_adjacency_stream(path, 5);
    streaming::VertexBatch batch;
    stream->begin_pass();
    while (stream->next_batch(batch)) {
    }
    stream->end_pass();
    return std::string();
  });
  return 0;
}
