#pragma once
// Small inline helpers for parsing whitespace/comma separated unsigned integers out of a line.
#include <cstdint>
#include <string_view>

namespace gnnpart::streaming {

inline bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

inline void skip_separators(std::string_view line, std::size_t& pos) {
  while (pos < line.size() && is_separator(line[pos]))
    ++pos;
}

// Parses an unsigned decimal at pos (after separators). Returns false when there is no digit or
// the token has a non-digit character (a sign, a letter, a decimal point) or overflows 64 bits.
inline bool parse_unsigned(std::string_view line, std::size_t& pos, std::uint64_t& value) {
  skip_separators(line, pos);
  if (pos >= line.size())
    return false;
  std::uint64_t result = 0;
  const std::size_t start = pos;
  // Up to 19 digits cannot overflow 64 bits; only a 20th needs the check.
  while (pos < line.size()) {
    const unsigned digit = static_cast<unsigned>(line[pos]) - '0';
    if (digit > 9)
      break;
    if (pos - start >= 19 && result > (UINT64_MAX - digit) / 10)
      return false;
    result = result * 10 + digit;
    ++pos;
  }
  if (pos == start)
    return false;
  if (pos < line.size() && !is_separator(line[pos]))
    return false;
  value = result;
  return true;
}

// True when only separators remain.
inline bool at_end(std::string_view line, std::size_t pos) {
  skip_separators(line, pos);
  return pos >= line.size();
}

// For a comment line "# key: value" (or "% key: value"), the value when key matches.
inline bool comment_value(std::string_view line, std::string_view key, std::uint64_t& value) {
  std::size_t pos = 1;
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
    ++pos;
  if (line.substr(pos, key.size()) != key)
    return false;
  pos += key.size();
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == ':'))
    ++pos;
  return parse_unsigned(line, pos, value);
}

} // namespace gnnpart::streaming
