#pragma once
// Output files of lib/streaming. AtomicFile writes to "<path>.tmp.XXXXXX" next to the target
// (gzip-compressed when asked) and commit() renames it into place; dropped uncommitted, it
// removes the temporary file, so a failed run leaves no partial output. TempFile is a scratch
// file in a temporary directory, removed when the object dies.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gnnpart::streaming {

class AtomicFile {
public:
  // Throws SystemError when the temporary file cannot be created.
  explicit AtomicFile(std::string path, bool compress = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* bytes, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Overwrites bytes at an absolute offset (uncompressed files only), e.g. a header.
  void write_at(std::uint64_t offset, const void* bytes, std::size_t size);
  // Flushes, closes and renames onto the target. Throws SystemError.
  void commit();
  const std::string& path() const { return path_; }

private:
  void flush();
  void discard() noexcept;

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  void* gz_ = nullptr;
  std::string buffer_;
  bool committed_ = false;
};

// Buffered writer of unsigned integers, one per line, into an AtomicFile.
class LineNumberWriter {
public:
  explicit LineNumberWriter(AtomicFile& out) : out_(out) { buffer_.reserve(kFlush + 32); }
  void put(std::uint64_t value) {
    char digits[24];
    int length = 0;
    do {
      digits[length++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (length > 0)
      buffer_.push_back(digits[--length]);
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
  AtomicFile& out_;
  std::string buffer_;
};

class TempFile {
public:
  // Creates an empty file in dir (empty: $TMPDIR or /tmp). Throws SystemError.
  explicit TempFile(const std::string& dir, const std::string& tag);
  ~TempFile();
  TempFile(TempFile&& other) noexcept;
  TempFile& operator=(TempFile&&) = delete;
  TempFile(const TempFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// The directory for scratch files: dir if set, else $TMPDIR, else /tmp.
std::string resolve_temp_dir(const std::string& dir);

} // namespace gnnpart::streaming
