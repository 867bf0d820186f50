// layout.json of a layout directory: a damaged manifest must end in InputError, never a crash.
// (The reader's header moves with the layout code; only the include below names its place.)
#include <stdlib.h>

#include <fstream>

#include "fuzz_input.h"
#include "layout/layout_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = [] {
    char pattern[] = "/tmp/gnnpart_fuzz_layout_XXXXXX";
    if (mkdtemp(pattern) == nullptr)
      std::abort();
    return std::string(pattern);
  }();
  std::ofstream(dir + "/layout.json", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  gnnpart::fuzz::read_or_reject([&] { gnnpart::io::read_layout_manifest(dir); });
  return 0;
}
