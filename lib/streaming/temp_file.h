#pragma once
// Scratch files of lib/streaming (sorted runs, the symmetrized adjacency stream), and a
// buffered writer of one number per line. Outputs themselves go through io::OutputFile, which
// writes a temporary file and renames it into place.
#include <cstdint>
#include <string>

#include "io/output_file.h"

namespace gnnpart::streaming {

// An empty file in a temporary directory, removed when the object dies (and by the CLI's
// signal handler, io/signal_cleanup.h, when the process is killed).
class TempFile {
public:
  // Creates the file in dir (empty: $TMPDIR or /tmp). Throws SystemError.
  explicit TempFile(const std::string& dir, const std::string& tag);
  ~TempFile();
  TempFile(TempFile&& other) noexcept;
  TempFile& operator=(TempFile&&) = delete;
  TempFile(const TempFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
  int cleanup_slot_ = -1;
};

// The directory for scratch files: dir if set, else $TMPDIR, else /tmp.
std::string resolve_temp_dir(const std::string& dir);

// Unsigned integers, one per line (partition files), gathered before they reach the file.
class LineNumberWriter {
public:
  explicit LineNumberWriter(io::OutputFile& out) : out_(out) { buffer_.reserve(kFlush + 32); }
  void put(std::uint64_t value) {
    io::append_number(buffer_, value);
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlush)
      flush();
  }
  void flush() {
    out_.write(buffer_);
    buffer_.clear();
  }

private:
  static constexpr std::size_t kFlush = 1 << 20;
  io::OutputFile& out_;
  std::string buffer_;
};

} // namespace gnnpart::streaming
