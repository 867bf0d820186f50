// .npy arrays of layout directories: a damaged file must end in InputError, never a crash.
#include "fuzz_input.h"
#include "io/npy.h"

using namespace gnnpart;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  fuzz::outcome([&] {
    io::read_npy_int64(path);
    return std::string();
  });
  fuzz::outcome([&] {
    io::read_npy_float32(path);
    return std::string();
  });
  return 0;
}
