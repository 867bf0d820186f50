// .npy arrays of layout directories: a damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = gnnpart::fuzz::input_path(data, size);
  gnnpart::fuzz::read_or_reject([&] { gnnpart::io::read_npy_int64(path); });
  gnnpart::fuzz::read_or_reject([&] { gnnpart::io::read_npy_float32(path); });
  return 0;
}
