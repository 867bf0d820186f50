// The binary formats of gnnpart generate / the external sort (edge stream and adjacency stream),
// through both readers: lib/streaming's streams and lib/io's whole-file reader the other
// commands use. A damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "io/binary_stream_format.h"
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
  fuzz::read_or_reject([&] { io::read_binary_stream(path); });
  return 0;
}
