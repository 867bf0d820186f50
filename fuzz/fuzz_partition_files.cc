// Partition files and per-vertex files (vertex sets, value lines): InputError, never a crash.
#include "fuzz_input.h"
#include "io/graph_io.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  fuzz::outcome([&] {
    io::read_partition(path, 6);
    return std::string();
  });
  fuzz::outcome([&] {
    io::read_partition(path, 6, 3);
    return std::string();
  });
  fuzz::outcome([&] {
    io::read_vertex_set(path, 9);
    return std::string();
  });
  fuzz::outcome([&] {
    io::read_vertex_values(path, 5);
    return std::string();
  });
  return 0;
}
