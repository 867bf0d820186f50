#pragma once
// Shared by the fuzz targets: the input bytes as a file the readers can open by path (an
// in-memory memfd, rewritten for every input), and the outcome of a read as one string so two
// paths that read the same format can be compared.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "core/errors.h"

namespace gnnpart::fuzz {

class InputFile {
public:
  InputFile() : fd_(memfd_create("gnnpart_fuzz", 0)) {
    if (fd_ < 0)
      std::abort();
  }
  // The file now holds exactly these bytes; returns its path.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0 || (size > 0 && pwrite(fd_, data, size, 0) != static_cast<ssize_t>(size)))
      std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
    return path_;
  }

private:
  int fd_;
  std::string path_;
};

// "error: FILE:LINE: message" for malformed input, else what read() returns. Any other exception
// escapes: libFuzzer reports it as a crash.
inline std::string outcome(const std::function<std::string()>& read) {
  try {
    return read();
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// The input bytes as a file (one per fuzz target process).
inline const std::string& input_path(const std::uint8_t* data, std::size_t size) {
  static InputFile file;
  return file.write(data, size);
}

// Runs read(); malformed input must end in InputError, anything else escapes as a crash.
template <typename Read> void read_or_reject(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

// Reads every batch of one pass of a stream (edge or vertex stream).
template <typename Stream, typename Batch> void drain(Stream& stream, Batch& batch) {
  stream.begin_pass();
  while (stream.next_batch(batch)) {
  }
  stream.end_pass();
}

// False when the first line that is neither blank nor a '%' comment (the header of hMETIS and
// Matrix Market files) holds a number above `limit`. A valid header may declare millions of
// isolated vertices, and the reader then rightly allocates for them: not a finding, so such
// inputs are skipped instead of tripping the fuzzer's 2 GiB allocation limit.
inline bool header_counts_at_most(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
  std::size_t i = 0;
  while (i < size) {
    std::size_t j = i;
    while (j < size && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r'))
      ++j;
    if (j < size && data[j] != '\n' && data[j] != '%')
      break;
    while (j < size && data[j] != '\n')
      ++j;
    i = j + 1;
  }
  std::uint64_t value = 0;
  for (; i < size && data[i] != '\n'; ++i) {
    if (data[i] >= '0' && data[i] <= '9') {
      if (value > limit / 10)
        return false;
      value = value * 10 + (data[i] - '0');
      if (value > limit)
        return false;
    } else {
      value = 0;
    }
  }
  return true;
}

// Aborts (a libFuzzer crash, input saved) when two paths disagree on one input.
inline void expect_same(const std::string& whole_file, const std::string& stream,
                        const char* what) {
  if (whole_file == stream)
    return;
  std::fprintf(stderr, "%s disagree:\n  io:        %s\n  streaming: %s\n", what,
               whole_file.c_str(), stream.c_str());
  std::abort();
}

} // namespace gnnpart::fuzz
