#include "io/value_lines.h"

#include <string>

#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "io/text_parsing.h"

namespace gnnpart::io::detail {

namespace {

// Parses rows of one chunk into values[first_row ...]; rows >= count must be blank (exact
// mode) and blank rows < count are errors.
void parse_chunk(std::string_view data, const RowIndex& rows, std::size_t c, std::uint64_t count,
                 const ValueLineRules& rules, std::int64_t* values, ParseFailure& failure) {
  std::uint64_t row = rows.first_row[c];
  const std::string what(rules.what);
  auto fail = [&](const char* at, std::string message) {
    failure.set(static_cast<std::size_t>(at - data.data()), std::move(message));
  };
  for_each_line(data, rows.bounds[c], rows.bounds[c + 1], [&](const char* p, const char* e) {
    if (!is_row(p, e, rows.skip_blank, rules.comments))
      return true;
    const std::uint64_t r = row++;
    p = skip_blanks(p, e);
    if (r >= count) {
      if (p == e)
        return true; // trailing blank lines
      fail(p, "more lines than expected: " + std::to_string(count) + " " + what +
                  (count == 1 ? "" : "s") + " (one per vertex)");
      return false;
    }
    if (p == e) {
      fail(p, "blank line in the middle (line i must hold the " + what + " of item i)");
      return false;
    }
    const char* at = p;
    std::int64_t value = 0;
    const NumberStatus status = parse_signed(p, e, false, value);
    if (status != NumberStatus::kOk) {
      fail(at, number_error(status, "an integer " + what, at, e, false));
      return false;
    }
    if (value < rules.min_value || value > rules.max_value) {
      fail(at, what + " " + token_text(at, e, false) + " is out of range " +
                   std::to_string(rules.min_value) + ".." + std::to_string(rules.max_value));
      return false;
    }
    p = skip_blanks(p, e);
    if (p != e) {
      fail(p, "unexpected token '" + token_text(p, e, false) + "' after the " + what);
      return false;
    }
    values[r] = value;
    return true;
  });
}

} // namespace

std::vector<std::int64_t> read_exact_values(const InputBuffer& in, std::uint64_t count,
                                            const ValueLineRules& rules) {
  const std::string_view data = in.data();
  const RowIndex rows = index_rows(data, 0, false, rules.comments);
  std::vector<std::int64_t> values(count);
  std::vector<ParseFailure> failures(rows.chunks());
  tbb::parallel_for(std::size_t{0}, rows.chunks(), [&](std::size_t c) {
    parse_chunk(data, rows, c, count, rules, values.data(), failures[c]);
  });
  failures.push_back(rows.long_line);
  throw_earliest(in.path(), data, failures);
  if (rows.rows() < count)
    throw InputError(in.path(), count_lines(data),
                     "found " + std::to_string(rows.rows()) + " lines, expected " +
                         std::to_string(count) + " (one " + std::string(rules.what) +
                         " per vertex)");
  return values;
}

std::vector<std::int64_t> read_values(const InputBuffer& in, const ValueLineRules& rules) {
  const std::string_view data = in.data();
  const RowIndex rows = index_rows(data, 0, true, rules.comments);
  std::vector<std::int64_t> values(rows.rows());
  std::vector<ParseFailure> failures(rows.chunks());
  tbb::parallel_for(std::size_t{0}, rows.chunks(), [&](std::size_t c) {
    parse_chunk(data, rows, c, rows.rows(), rules, values.data(), failures[c]);
  });
  failures.push_back(rows.long_line);
  throw_earliest(in.path(), data, failures);
  return values;
}

std::uint64_t line_of_value(const InputBuffer& in, const ValueLineRules& rules, std::uint64_t i) {
  const RowIndex rows = index_rows(in.data(), 0, true, rules.comments);
  return line_number_at(in.data(), row_offset(in.data(), rows, i));
}

} // namespace gnnpart::io::detail
