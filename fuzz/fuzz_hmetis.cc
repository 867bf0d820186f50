// hMETIS hypergraphs: malformed input must end in InputError, never a crash or a huge allocation.
#include "fuzz_input.h"
#include "io/graph_io.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  io::ReadOptions options;
  options.threads = 1;
  fuzz::outcome([&] {
    io::read_hmetis(path, options);
    return std::string();
  });
  return 0;
}
