// hMETIS hypergraphs: malformed input must end in InputError, never a crash or a huge allocation.
#include "fuzz_input.h"
#include "io/graph_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!gnnpart::fuzz::header_counts_at_most(data, size, 1 << 20))
    return 0;
  const std::string& path = gnnpart::fuzz::input_path(data, size);
  gnnpart::fuzz::read_or_reject([&] { gnnpart::io::read_hmetis(path, {.threads = 1}); });
  return 0;
}
