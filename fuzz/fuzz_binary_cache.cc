// The binary CSR cache (.gnnp): a damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "io/graph_io.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  fuzz::outcome([&] {
    io::read_binary_graph(path);
    return std::string();
  });
  return 0;
}
