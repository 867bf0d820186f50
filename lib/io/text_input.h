#pragma once
// Rules every text reader applies to its raw bytes before parsing, shared by lib/io's whole-file
// buffers and lib/streaming's chunked line reader so a bad byte gets the same answer on every
// path: a UTF-8 byte-order mark is skipped, a NUL byte in the first kSniffBytes means binary
// input (reported before the rest is read), and no line may be longer than kMaxLineBytes (a
// reader holds at most that much of one line).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gnnpart::io {

inline constexpr std::size_t kSniffBytes = std::size_t{64} << 10;
// Far above the longest adjacency row of a real graph (25M neighbours of 9 digits), small
// enough that a binary blob without newlines fails before it fills the memory.
inline constexpr std::size_t kMaxLineBytes = std::size_t{256} << 20;

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// 3 when the bytes start with a UTF-8 byte-order mark, else 0.
inline std::size_t bom_length(std::string_view bytes) {
  return bytes.substr(0, kUtf8Bom.size()) == kUtf8Bom ? kUtf8Bom.size() : 0;
}

// The NUL byte of the sniffed prefix, if any: its 1-based line (the prefix starts at line 1).
struct BinarySniff {
  bool binary = false;
  std::uint64_t line = 0;
};
BinarySniff sniff_binary(std::string_view prefix);

std::string binary_input_message();
std::string long_line_message(std::size_t limit);

// `text` with every byte outside printable ASCII written as \xNN (messages stay one line and
// never carry a NUL or an escape sequence to the terminal).
std::string escape_bytes(std::string_view text);

} // namespace gnnpart::io
