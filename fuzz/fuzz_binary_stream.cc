// The streaming binary formats (edge stream and adjacency stream of gnnpart generate / the
// external sort): a damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "streaming/edge_stream.h"
#include "streaming/vertex_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gnnpart;
  const std::string& path = fuzz::input_path(data, size);
  fuzz::read_or_reject([&] {
    streaming::EdgeBatch batch;
    fuzz::drain(*streaming::open_edge_stream(path, streaming::StreamFormat::kBinary, false, 7), batch);
  });
  fuzz::read_or_reject([&] {
    streaming::VertexBatch batch;
    fuzz::drain(*streaming::open_binary_adjacency_stream(path, 5), batch);
  });
  return 0;
}
