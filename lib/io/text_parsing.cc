#include "io/text_parsing.h"

#include <algorithm>
#include <cstring>

#include <tbb/parallel_for.h>

#include "core/errors.h"

namespace gnnpart::io::detail {

std::vector<std::size_t> split_at_newlines(std::string_view data, std::size_t begin,
                                           std::size_t chunk_bytes) {
  std::vector<std::size_t> bounds{begin};
  std::size_t at = begin;
  while (data.size() - at > chunk_bytes) {
    const std::size_t target = at + chunk_bytes;
    const void* nl = std::memchr(data.data() + target, '\n', data.size() - target);
    if (nl == nullptr)
      break;
    at = static_cast<std::size_t>(static_cast<const char*>(nl) - data.data()) + 1;
    if (at >= data.size())
      break;
    bounds.push_back(at);
  }
  bounds.push_back(data.size());
  return bounds;
}

ParseFailure first_long_line(std::string_view data, const std::vector<std::size_t>& bounds,
                             std::size_t limit) {
  ParseFailure failure;
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    if (bounds[c + 1] - bounds[c] <= limit)
      continue;
    for_each_line(data, bounds[c], bounds[c + 1], [&](const char* p, const char* e) {
      if (static_cast<std::size_t>(e - p) <= limit)
        return true;
      failure.set(static_cast<std::size_t>(p - data.data()), long_line_message(limit));
      return false;
    });
    if (failure.failed())
      break;
  }
  return failure;
}

std::size_t count_newlines(std::string_view data, std::size_t begin, std::size_t end) {
  // Eight bytes at a time: a byte of x ^ 0x0a.. is zero exactly where a '\n' is; the classic
  // exact zero-byte mask (no borrow between bytes) is then counted with popcount.
  constexpr std::uint64_t kNewlines = 0x0a0a0a0a0a0a0a0aULL, kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  const char* p = data.data() + begin;
  const char* const stop = data.data() + end;
  std::size_t count = 0;
  for (; stop - p >= 8; p += 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    x ^= kNewlines;
    const std::uint64_t zero_high_bits = ~(((x & kLow7) + kLow7) | x | kLow7);
    count += static_cast<std::size_t>(__builtin_popcountll(zero_high_bits));
  }
  for (; p != stop; ++p)
    count += *p == '\n' ? 1 : 0;
  return count;
}

std::uint64_t line_number_at(std::string_view data, std::size_t offset) {
  return 1 + count_newlines(data, 0, std::min(offset, data.size()));
}

std::uint64_t count_lines(std::string_view data) {
  if (data.empty())
    return 0;
  return count_newlines(data, 0, data.size()) + (data.back() == '\n' ? 0 : 1);
}

const ParseFailure* earliest_failure(const std::vector<ParseFailure>& failures) {
  const ParseFailure* best = nullptr;
  for (const auto& f : failures)
    if (f.failed() && (best == nullptr || f.offset < best->offset))
      best = &f;
  return best;
}

void throw_failure(const std::string& file, std::string_view data, const ParseFailure& failure) {
  throw InputError(file, line_number_at(data, failure.offset), failure.message);
}

void throw_earliest(const std::string& file, std::string_view data,
                    const std::vector<ParseFailure>& failures) {
  if (const ParseFailure* f = earliest_failure(failures))
    throw_failure(file, data, *f);
}

const char* skip_line(const char* p, const char* end) {
  const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return nl == nullptr ? end : static_cast<const char*>(nl) + 1;
}

std::string token_text(const char* p, const char* end, bool commas) {
  // Never scans past 41 bytes: a token can be a whole binary blob.
  const char* e = token_end(p, std::min(end, p + 41), commas);
  std::string text = escape_bytes(std::string_view(p, static_cast<std::size_t>(std::min<std::ptrdiff_t>(e - p, 40))));
  if (e - p > 40)
    text += "...";
  return text;
}

std::string number_error(NumberStatus status, std::string_view what, const char* p, const char* end,
                         bool commas) {
  const std::string token = token_text(p, end, commas);
  switch (status) {
  case NumberStatus::kNegative:
    return std::string(what) + " is negative: '" + token + "'";
  case NumberStatus::kOverflow:
    return std::string(what) + " is too large: '" + token + "'";
  default:
    if (token.empty())
      return "expected " + std::string(what) + ", found end of line";
    return "expected " + std::string(what) + ", found '" + token + "'";
  }
}

RowIndex index_rows(std::string_view data, std::size_t begin, bool skip_blank,
                    std::string_view comments) {
  RowIndex index;
  index.skip_blank = skip_blank;
  index.comments = comments;
  index.bounds = split_at_newlines(data, begin);
  index.long_line = first_long_line(data, {0, begin}); // the header lines
  if (!index.long_line.failed())
    index.long_line = first_long_line(data, index.bounds);
  const std::size_t chunks = index.chunks();
  index.first_row.assign(chunks + 1, 0);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    std::uint64_t rows = 0;
    for_each_line(data, index.bounds[c], index.bounds[c + 1], [&](const char* p, const char* e) {
      rows += is_row(p, e, skip_blank, comments) ? 1 : 0;
      return true;
    });
    index.first_row[c + 1] = rows;
  });
  for (std::size_t c = 0; c < chunks; ++c)
    index.first_row[c + 1] += index.first_row[c];
  return index;
}

std::size_t row_offset(std::string_view data, const RowIndex& index, std::uint64_t row) {
  std::size_t c = 0;
  while (c + 1 < index.chunks() && index.first_row[c + 1] <= row)
    ++c;
  std::uint64_t r = index.first_row[c];
  std::size_t found = index.bounds[c + 1];
  for_each_line(data, index.bounds[c], index.bounds[c + 1], [&](const char* p, const char* e) {
    if (!is_row(p, e, index.skip_blank, index.comments))
      return true;
    if (r++ == row) {
      found = static_cast<std::size_t>(p - data.data());
      return false;
    }
    return true;
  });
  return found;
}

HeaderLine find_header_line(std::string_view data, std::size_t from) {
  HeaderLine header;
  for_each_line(data, from, data.size(), [&](const char* p, const char* e) {
    const char* q = skip_blanks(p, e);
    if (q == e || *q == '%')
      return true;
    header.begin = static_cast<std::size_t>(p - data.data());
    header.end = static_cast<std::size_t>(e - data.data());
    header.next = std::min(header.end + 1, data.size());
    return false;
  });
  return header;
}

std::vector<std::uint64_t> parse_header_numbers(const std::string& file, std::string_view data,
                                                const HeaderLine& header,
                                                const std::vector<std::string>& field_names) {
  return parse_header_numbers(file, line_number_at(data, header.begin), data.data() + header.begin,
                              data.data() + header.end, field_names);
}

std::vector<std::uint64_t> parse_header_numbers(const std::string& file, std::uint64_t line,
                                                const char* p, const char* end,
                                                const std::vector<std::string>& field_names) {
  std::vector<std::uint64_t> values;
  for (;;) {
    p = skip_blanks(p, end);
    if (p == end)
      break;
    if (values.size() == field_names.size())
      throw InputError(file, line,
                       "unexpected extra header field '" + token_text(p, end, false) + "'");
    std::uint64_t value = 0;
    const char* at = p;
    const NumberStatus status = parse_unsigned(p, end, false, value);
    if (status != NumberStatus::kOk)
      throw InputError(file, line,
                       "header: " +
                           number_error(status, field_names[values.size()], at, end, false));
    values.push_back(value);
  }
  return values;
}

} // namespace gnnpart::io::detail
