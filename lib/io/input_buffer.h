#pragma once
// The whole content of an input file in memory: plain files are memory-mapped, gzip streams
// (recognised by their magic bytes, whatever the name) are inflated with zlib. Readers parse
// the bytes in parallel chunks afterwards. Text input gets the checks of io/text_input.h: a
// UTF-8 byte-order mark is dropped, and a NUL byte among the first bytes fails before the
// rest of the file is read or inflated.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace gnnpart::io {

enum class InputKind { kText, kRaw };

class InputBuffer {
public:
  // Throws InputError "FILE: ..." when the file cannot be opened or its gzip stream is
  // truncated or corrupt, and "FILE:LINE: binary data ..." for text input with a NUL byte
  // among its first kSniffBytes.
  explicit InputBuffer(const std::string& path, InputKind kind = InputKind::kText);
  ~InputBuffer();
  InputBuffer(InputBuffer&& other) noexcept;
  InputBuffer& operator=(InputBuffer&& other) noexcept;
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;

  const std::string& path() const { return path_; }
  std::string_view data() const { return data_; }
  std::size_t size() const { return data_.size(); }
  bool empty() const { return data_.empty(); }
  bool compressed() const { return compressed_; }
  // Bytes on disk (compressed size for gzip input).
  std::size_t file_size() const { return file_size_; }
  // Gives the whole pages of data()[begin, end) of a mapped file back to the kernel: they no
  // longer count as resident, and are read again from the page cache (same bytes) when touched.
  // For a reader that is done with a chunk, so that the text and the arrays parsed from it are
  // not resident together. Nothing for inflated or piped input.
  void drop_pages(std::size_t begin, std::size_t end) const;

private:
  void release() noexcept;

  std::string path_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  std::unique_ptr<char[]> owned_;
  std::string_view data_;
  std::size_t file_size_ = 0;
  bool compressed_ = false;
};

// True when the bytes start with the gzip magic 1f 8b.
bool is_gzip(std::string_view bytes);

// The messages of a bad gzip stream, shared with lib/streaming's chunked inflater.
std::string truncated_gzip_message();
std::string corrupt_gzip_message(const char* zlib_message);

} // namespace gnnpart::io
