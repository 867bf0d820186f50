#include "io/text_input.h"

#include <algorithm>
#include <cstring>

namespace gnnpart::io {

BinarySniff sniff_binary(std::string_view prefix) {
  prefix = prefix.substr(0, kSniffBytes);
  const void* nul = std::memchr(prefix.data(), '\0', prefix.size());
  if (nul == nullptr)
    return {};
  const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nul) - prefix.data());
  return {true, 1 + static_cast<std::uint64_t>(std::count(prefix.begin(), prefix.begin() + at, '\n'))};
}

std::string binary_input_message() {
  return "binary data (a NUL byte), not a text file; is this the right file and format?";
}

std::string long_line_message(std::size_t limit) {
  return "line longer than " + std::to_string(limit) + " bytes (binary data or a missing newline?)";
}

std::string escape_bytes(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 15]);
    }
  }
  return out;
}

} // namespace gnnpart::io
