#pragma once
// Atomic, buffered output: bytes go to a temporary file next to the target ("<path>.tmp.XXXXXX"),
// gzip-compressed when the target ends in ".gz", and commit() renames it into place. If the
// object dies uncommitted (an error or exception while writing), the temporary file is removed,
// so a failed run never leaves a partial output behind. A symlink is followed to its target; a
// FIFO, a device or standard output is written directly and never replaced (output_target.h).
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace gnnpart::io {

struct OutputTarget;

class OutputFile {
public:
  // Throws SystemError when the temporary file cannot be created (missing directory, ...).
  explicit OutputFile(const std::string& path);
  OutputFile(const std::string& path, bool compress);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);
  void write(const void* bytes, std::size_t size) {
    write(std::string_view(static_cast<const char*>(bytes), size));
  }
  // Overwrites bytes at an absolute offset of an uncompressed file (e.g. a header whose counts
  // are known only at the end). Throws SystemError on a compressed file or a FIFO.
  void write_at(std::uint64_t offset, const void* bytes, std::size_t size);
  // Flushes, closes and renames the temporary file onto the target. Throws SystemError.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

private:
  void flush();
  void write_raw(const char* bytes, std::size_t size);
  void deflate_some(const char* bytes, std::size_t size, bool finish);
  void discard() noexcept;
  void open_temporary(const std::string& target);
  void open_direct(const OutputTarget& target);

  std::string path_;
  std::string target_path_; // path_ with symlinks followed (renamed onto)
  std::string temp_path_;   // empty when written directly
  int fd_ = -1;
  bool compress_ = false;
  bool committed_ = false;
  int cleanup_slot_ = -1; // the temporary file's registration (io/signal_cleanup.h)
  std::string buffer_;  // small writes gather here (streams write a record at a time)
  struct Deflater;
  std::unique_ptr<Deflater> deflater_;
};

// True when the path ends in ".gz".
bool has_gz_suffix(std::string_view path);

// Formats items [0, count) in parallel blocks of `grain` items with format(begin, end, text),
// and writes the blocks in order; memory stays bounded by a few blocks per thread.
void write_parallel_blocks(
    OutputFile& out, std::uint64_t count, std::uint64_t grain,
    const std::function<void(std::uint64_t, std::uint64_t, std::string&)>& format);

// Appends the decimal digits of value.
template <typename Int> inline void append_number(std::string& text, Int value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  text.append(digits, static_cast<std::size_t>(result.ptr - digits));
}

} // namespace gnnpart::io
