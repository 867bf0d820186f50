#pragma once
// Sequential chunked reading of a file that may be gzip-compressed (recognised by its magic
// bytes). The stream readers parse out of the chunks; only one chunk is in memory at a time.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gnnpart::streaming {

class FileSource {
public:
  // Throws InputError "FILE: cannot open ..." when the file cannot be opened.
  explicit FileSource(std::string path);
  ~FileSource();
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  // Reads up to size bytes; returns 0 at the end. Throws InputError on a corrupt gzip stream.
  std::size_t read(char* out, std::size_t size);
  // Reads exactly size bytes or throws InputError "truncated" naming what was expected.
  void read_exact(char* out, std::size_t size, const char* what);
  // Back to the first byte.
  void rewind();
  // Moves to an absolute (uncompressed) offset; plain files only.
  void seek(std::uint64_t offset);

  const std::string& path() const { return path_; }
  bool compressed() const { return gz_ != nullptr; }
  // Bytes on disk, and how many of them have been consumed (compressed offset for gzip).
  std::uint64_t file_size() const { return file_size_; }
  std::uint64_t bytes_consumed() const;

private:
  void open();
  void close() noexcept;

  std::string path_;
  int fd_ = -1;
  void* gz_ = nullptr; // gzFile
  std::uint64_t file_size_ = 0;
  std::uint64_t plain_offset_ = 0;
};

// True when the file starts with the gzip magic bytes.
bool file_is_gzip(const std::string& path);

// Splits a FileSource into lines (without the newline, '\r' stripped) and counts them.
class LineReader {
public:
  explicit LineReader(FileSource& source, std::size_t chunk_bytes = 1 << 20);
  // Points line at the next line; false at the end of the input. Valid until the next call.
  bool next(std::string_view& line) { return next_in_buffer(line) || next_slow(line); }
  std::uint64_t line_number() const { return line_number_; }
  void rewind();
  FileSource& source() { return source_; }

private:
  // The next complete line of the buffer (inline: called once per line of the input).
  bool next_in_buffer(std::string_view& line) {
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline == nullptr)
      return false;
    std::size_t length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
    begin_ += length + 1;
    if (length > 0 && start[length - 1] == '\r')
      --length;
    line = std::string_view(start, length);
    ++line_number_;
    return true;
  }
  bool next_slow(std::string_view& line); // refills the buffer; the last line may lack '\n'
  bool refill();

  FileSource& source_;
  std::string buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
};

} // namespace gnnpart::streaming
