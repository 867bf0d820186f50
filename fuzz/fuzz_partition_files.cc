// Partition files and per-vertex files (vertex sets, value lines): InputError, never a crash.
#include "fuzz_input.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gnnpart;
  const std::string& path = fuzz::input_path(data, size);
  fuzz::read_or_reject([&] { io::read_partition(path, 6); });
  fuzz::read_or_reject([&] { io::read_partition(path, 6, 3); });
  fuzz::read_or_reject([&] { io::read_vertex_set(path, 9); });
  fuzz::read_or_reject([&] { io::read_vertex_values(path, 5); });
  return 0;
}
