#pragma once
// Sequential chunked reading of a file that may be gzip-compressed (recognised by its magic
// bytes; concatenated members are one stream, as in lib/io's InputBuffer, with its messages for a
// truncated or corrupt stream). The stream readers parse out of the chunks; only one chunk is in
// memory at a time.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "io/text_input.h"

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
  struct Gzip; // zlib state, compressed input buffer
  void open();
  void close() noexcept;
  std::size_t read_plain(char* out, std::size_t size);
  std::size_t inflate_into(char* out, std::size_t size);
  bool fill_compressed(); // more compressed bytes behind the unread ones; false at the end

  std::string path_;
  int fd_ = -1;
  Gzip* gz_ = nullptr; // set for gzip input
  std::uint64_t file_size_ = 0;
  std::uint64_t plain_offset_ = 0;
};

// True when the file starts with the gzip magic bytes.
bool file_is_gzip(const std::string& path);

// Splits a FileSource into lines (without the newline, '\r' stripped) and counts them. Applies
// the text rules of io/text_input.h as lib/io's whole-file reader does: a UTF-8 byte-order mark
// is skipped, a NUL byte in the first kSniffBytes throws "FILE:LINE: binary data ...", a line
// longer than max_line_bytes throws (the buffer never grows past it).
class LineReader {
public:
  explicit LineReader(FileSource& source, std::size_t chunk_bytes = 1 << 20,
                      std::size_t max_line_bytes = io::kMaxLineBytes);
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
    if (length > max_line_bytes_) [[unlikely]]
      throw_long_line();
    begin_ += length + 1;
    if (length > 0 && start[length - 1] == '\r')
      --length;
    line = std::string_view(start, length);
    ++line_number_;
    return true;
  }
  bool next_slow(std::string_view& line); // refills the buffer; the last line may lack '\n'
  bool refill();
  void check_start(); // byte-order mark and binary sniff, once per pass
  [[noreturn]] void throw_long_line() const;

  FileSource& source_;
  std::string buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool started_ = false;
  std::size_t max_line_bytes_;
  std::uint64_t line_number_ = 0;
};

} // namespace gnnpart::streaming
