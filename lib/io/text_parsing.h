#pragma once
// Helpers shared by the text readers: splitting a buffer into chunks at newlines (parsed in
// parallel, results kept in file order), token parsing with std::from_chars, and turning the
// earliest failure of any chunk into an InputError with its exact line number (newlines are
// counted only once a failure is known).
#include <charconv>
#include <cstddef>
#include <cstdint>
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

// Parses the unsigned integer token at p; on success p moves past it. The token must end at a
// separator, '\n' or end ("12x" is not a number).
inline NumberStatus parse_unsigned(const char*& p, const char* end, bool commas,
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
