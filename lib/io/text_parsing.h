#pragma once
// Helpers shared by the text readers: splitting a buffer into chunks at newlines (parsed in
// parallel, results kept in file order), token parsing with std::from_chars, and turning the
// earliest failure of any chunk into an InputError with its exact line number (newlines are
// counted only once a failure is known).
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/parallel.h"
#include "io/text_input.h"

namespace gnnpart::io::detail {

// Runs f with `threads` threads (<= 0: all hardware threads, the meaning `threads` has on
// every front end); inside an entry point's arena of that size it opens no second one.
template <typename F> auto with_threads(int threads, F&& f) {
  return run_with_threads(threads, std::forward<F>(f));
}

inline constexpr std::size_t kNoOffset = std::numeric_limits<std::size_t>::max();
// Chunk size for parallel parsing; fixed so the work split never depends on the thread count.
inline constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

// Boundaries b[0] = begin < b[1] < ... < b.back() = data.size(); every b[i] (i > 0 and not the
// end) is just after a '\n'. Chunks are about chunk_bytes long.
std::vector<std::size_t> split_at_newlines(std::string_view data, std::size_t begin,
                                           std::size_t chunk_bytes = kChunkBytes);

// 1 + number of '\n' in data[0, offset).
std::uint64_t line_number_at(std::string_view data, std::size_t offset);
// Lines in the buffer (a last line without '\n' counts).
std::uint64_t count_lines(std::string_view data);
// '\n' characters in data[begin, end).
std::size_t count_newlines(std::string_view data, std::size_t begin, std::size_t end);

// The first failure found in a chunk: byte offset into the buffer and a message.
struct ParseFailure {
  std::size_t offset = kNoOffset;
  std::string message;
  bool failed() const { return offset != kNoOffset; }
  void set(std::size_t at, std::string what) {
    if (at < offset) {
      offset = at;
      message = std::move(what);
    }
  }
};

// A ParseFailure (offset kNoOffset when none) at the start of the first line of data longer
// than `limit` bytes ('\n' excluded). Only chunks longer than the limit can hold one, so this
// costs nothing on ordinary input.
ParseFailure first_long_line(std::string_view data, const std::vector<std::size_t>& bounds,
                             std::size_t limit = kMaxLineBytes);

// The failure with the smallest offset, or nullptr.
const ParseFailure* earliest_failure(const std::vector<ParseFailure>& failures);
// Throws InputError(file, line of failure.offset, message).
[[noreturn]] void throw_failure(const std::string& file, std::string_view data,
                                const ParseFailure& failure);
// Throws for the earliest failure, if any.
void throw_earliest(const std::string& file, std::string_view data,
                    const std::vector<ParseFailure>& failures);

// Separators inside a line: blanks, tabs, '\r' and (when allowed) commas.
inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
inline bool is_separator(char c, bool commas) {
  return is_blank(c) || (commas && c == ',');
}
// What may follow a number: '\n' or a separator. One test of a 64-bit mask of the bytes up to
// ' ' ('\t', '\n', '\v', '\f', '\r', ' ') instead of a '\n' test and then the blank test
// (METIS rows, cnr-2000 `info -t 1`: 784.0M -> 768.2M instructions).
inline bool ends_token(char c, bool commas) {
  constexpr std::uint64_t kEnds = (std::uint64_t{1} << '\t') | (std::uint64_t{1} << '\n') |
                                  (std::uint64_t{1} << '\v') | (std::uint64_t{1} << '\f') |
                                  (std::uint64_t{1} << '\r') | (std::uint64_t{1} << ' ');
  const auto b = static_cast<unsigned char>(c);
  return (b <= ' ' && ((kEnds >> b) & 1) != 0) || (commas && c == ',');
}
inline const char* skip_separators(const char* p, const char* end, bool commas) {
  while (p != end && is_separator(*p, commas))
    ++p;
  return p;
}
inline const char* skip_blanks(const char* p, const char* end) {
  while (p != end && is_blank(*p))
    ++p;
  return p;
}
// Just after the next '\n' (or end).
const char* skip_line(const char* p, const char* end);
// End of the token at p (first separator, '\n' or end).
inline const char* token_end(const char* p, const char* end, bool commas) {
  while (p != end && *p != '\n' && !is_separator(*p, commas))
    ++p;
  return p;
}

enum class NumberStatus { kOk, kNotNumber, kNegative, kOverflow };

// Eight bytes at a time (SWAR, little-endian byte order: the first character is the lowest
// byte). How many of the 8 bytes at p are decimal digits before the first other byte: a byte is
// a digit exactly when it and the byte plus 6 both have the high nibble 3. A carry out of a
// byte >= 0xfa (not a digit) can only corrupt the bytes after it, which are not counted.
static_assert(std::endian::native == std::endian::little, "the SWAR digit parser reads bytes LE");
inline unsigned leading_digits8(const char* p) {
  constexpr std::uint64_t kHigh = 0xf0f0f0f0f0f0f0f0ULL, kThrees = 0x3030303030303030ULL;
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  const std::uint64_t not_digit =
      ((x & kHigh) ^ kThrees) | (((x + 0x0606060606060606ULL) & kHigh) ^ kThrees);
  return not_digit == 0 ? 8u : static_cast<unsigned>(__builtin_ctzll(not_digit)) / 8;
}
// The value of the first `digits` (0..8) bytes at p, all decimal digits: the digits are moved to
// the top bytes (zeros in front) and combined pairwise by three multiplications.
inline std::uint64_t digits8_value(const char* p, unsigned digits) {
  if (digits == 0)
    return 0;
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  x = (x & 0x0f0f0f0f0f0f0f0fULL) << (8 * (8 - digits));
  x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
  x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
  return (x * 10000 + (x >> 32)) & 0xffffffffULL;
}

// The general path of parse_unsigned: std::from_chars, and the status of a token that fails.
inline NumberStatus parse_unsigned_token(const char*& p, const char* end, bool commas,
                                         std::uint64_t& value) {
  const auto [ptr, ec] = std::from_chars(p, end, value);
  if (ec == std::errc() && (ptr == end || *ptr == '\n' || is_separator(*ptr, commas))) {
    p = ptr;
    return NumberStatus::kOk;
  }
  if (p != end && *p == '-') {
    std::int64_t negative = 0;
    const auto [nptr, nec] = std::from_chars(p, end, negative);
    if (nptr != p && (nptr == end || *nptr == '\n' || is_separator(*nptr, commas)))
      return NumberStatus::kNegative;
    return NumberStatus::kNotNumber;
  }
  if (ec == std::errc::result_out_of_range)
    return NumberStatus::kOverflow;
  return NumberStatus::kNotNumber;
}

// Parses the unsigned integer token at p; on success p moves past it. The token must end at a
// separator, '\n' or end ("12x" is not a number).
// The common token, 1 to 19 digits (never past 2^64 - 1) and a proper end, is read by a plain
// digit loop with no call; every other token is read again by the general path, which decides
// (and words) it, so both accept exactly the same tokens with the same values.
// Always inlined: once the METIS row loop had a copy per edge-weight flag, GCC stopped inlining
// it there and the call cost 937.1M instructions against 853.3M (cnr-2000, `info -t 1`).
[[gnu::always_inline]] inline NumberStatus parse_unsigned(const char*& p, const char* end,
                                                          bool commas, std::uint64_t& value) {
  const char* q = p;
  std::uint64_t v = 0;
  if (end - p >= 8) {
    const unsigned digits = leading_digits8(p);
    v = digits8_value(p, digits);
    q = p + digits;
  }
  if (q - p == 8 || end - p < 8)
    for (unsigned digit; q != end && (digit = static_cast<unsigned char>(*q) - unsigned{'0'}) < 10;
         ++q)
      v = v * 10 + digit;
  const std::ptrdiff_t digits = q - p;
  if (digits > 0 && digits <= 19 && (q == end || ends_token(*q, commas)))
      [[likely]] {
    p = q;
    value = v;
    return NumberStatus::kOk;
  }
  return parse_unsigned_token(p, end, commas, value);
}

// Parses a signed integer token.
inline NumberStatus parse_signed(const char*& p, const char* end, bool commas,
                                 std::int64_t& value) {
  const auto [ptr, ec] = std::from_chars(p, end, value);
  if (ec == std::errc() && (ptr == end || *ptr == '\n' || is_separator(*ptr, commas))) {
    p = ptr;
    return NumberStatus::kOk;
  }
  if (ec == std::errc::result_out_of_range)
    return NumberStatus::kOverflow;
  return NumberStatus::kNotNumber;
}

// The token at p for messages, shortened to 40 characters, non-printable bytes escaped.
std::string token_text(const char* p, const char* end, bool commas);

// "expected WHAT, found 'TOKEN'" / "... is negative" / "... is too large" for a failed parse.
std::string number_error(NumberStatus status, std::string_view what, const char* p, const char* end,
                         bool commas);

// Calls f(line_begin, line_end) for every line of data[begin, end) ('\n' excluded); stops
// early when f returns false.
template <typename F>
void for_each_line(std::string_view data, std::size_t begin, std::size_t end, F&& f) {
  const char* p = data.data() + begin;
  const char* const stop = data.data() + end;
  while (p < stop) {
    const char* next = skip_line(p, stop);
    const char* line_end = (next > p && next[-1] == '\n') ? next - 1 : next;
    if (!f(p, line_end))
      return;
    p = next;
  }
}

// Line-oriented formats (METIS, hMETIS): "rows" are the lines that are not comments (first
// non-blank character '%') and, when skip_blank, not blank. Chunk c holds rows
// [first_row[c], first_row[c + 1]).
struct RowIndex {
  std::vector<std::size_t> bounds;
  std::vector<std::uint64_t> first_row;
  bool skip_blank = false;
  std::string_view comments = "%";
  ParseFailure long_line; // the first line longer than kMaxLineBytes
  std::size_t chunks() const { return bounds.size() - 1; }
  std::uint64_t rows() const { return first_row.back(); }
};

inline bool is_row(const char* p, const char* line_end, bool skip_blank,
                   std::string_view comments = "%") {
  p = skip_blanks(p, line_end);
  if (p == line_end)
    return !skip_blank;
  return comments.find(*p) == std::string_view::npos;
}

// Counts rows per chunk in parallel; `comments` lists the comment characters.
RowIndex index_rows(std::string_view data, std::size_t begin, bool skip_blank,
                    std::string_view comments = "%");
// Byte offset of row r (for error messages; sequential within one chunk).
std::size_t row_offset(std::string_view data, const RowIndex& index, std::uint64_t row);

// The first line at or after `from` that is neither blank nor a '%' comment: [begin, end) and
// the offset just past it. begin == kNoOffset when there is none.
struct HeaderLine {
  std::size_t begin = kNoOffset;
  std::size_t end = 0;
  std::size_t next = 0;
};
HeaderLine find_header_line(std::string_view data, std::size_t from);

// Reads the unsigned integers of a header line [p, end) (at most field_names.size(); more is an
// error). Throws InputError at `line` for non-numbers, naming the fields.
std::vector<std::uint64_t> parse_header_numbers(const std::string& file, std::uint64_t line,
                                                const char* p, const char* end,
                                                const std::vector<std::string>& field_names);
std::vector<std::uint64_t> parse_header_numbers(const std::string& file, std::string_view data,
                                                const HeaderLine& header,
                                                const std::vector<std::string>& field_names);

} // namespace gnnpart::io::detail
