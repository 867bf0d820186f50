// Matrix Market coordinate matrices as graphs: banner "%%MatrixMarket matrix coordinate FIELD
// SYMMETRY", '%' comments, size line "rows cols nnz", then nnz lines "i j [value]" (1-based).
// The matrix must be square. Pattern, real and complex values give unit edge weights (values are
// checked to be numbers, then dropped); integer values become edge weights and must be >= 1.
// General matrices are symmetrized (the larger weight of a pair wins); the diagonal is dropped.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/text_parsing.h"
#include "io/whole_file.h"

namespace gnnpart::io {

namespace {

using namespace detail;

enum class Field { kPattern, kInteger, kReal, kComplex };

struct Banner {
  Field field = Field::kPattern;
  std::size_t next = 0; // offset after the banner line
};

std::string lower_word(const char*& p, const char* end) {
  p = skip_blanks(p, end);
  std::string word;
  while (p != end && !is_blank(*p) && *p != '\n')
    word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(*p++))));
  return word;
}

Banner parse_banner(const InputBuffer& in) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const char* p = data.data();
  const char* end = data.data() + data.size();
  const char* line_end = skip_line(p, end);
  if (!data.starts_with("%%MatrixMarket"))
    throw InputError(file, 1, "missing '%%MatrixMarket' banner");
  p += 14;
  const std::string object = lower_word(p, line_end);
  const std::string format = lower_word(p, line_end);
  const std::string field = lower_word(p, line_end);
  const std::string symmetry = lower_word(p, line_end);
  if (object != "matrix")
    throw InputError(file, 1, "unsupported Matrix Market object '" + object + "' (need matrix)");
  if (format != "coordinate")
    throw InputError(file, 1,
                     "unsupported Matrix Market format '" + format + "' (need coordinate)");
  Banner banner;
  if (field == "pattern")
    banner.field = Field::kPattern;
  else if (field == "integer")
    banner.field = Field::kInteger;
  else if (field == "real" || field == "double")
    banner.field = Field::kReal;
  else if (field == "complex")
    banner.field = Field::kComplex;
  else
    throw InputError(file, 1, "unknown Matrix Market field '" + field + "'");
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric" &&
      symmetry != "hermitian")
    throw InputError(file, 1, "unknown Matrix Market symmetry '" + symmetry + "'");
  banner.next = static_cast<std::size_t>(line_end - data.data());
  return banner;
}

bool parse_real(const char*& p, const char* end) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(p, end, value);
  if (ec != std::errc() || (ptr != end && *ptr != '\n' && !is_blank(*ptr)))
    return false;
  p = ptr;
  return true;
}

void parse_entries(std::string_view data, std::size_t begin, std::size_t end, std::uint64_t row,
                   std::uint64_t n, std::uint64_t nnz, Field field, NodeID* sources,
                   NodeID* targets, Weight* weights, ParseFailure& failure) {
  auto fail = [&](const char* at, std::string message) {
    failure.set(static_cast<std::size_t>(at - data.data()), std::move(message));
  };
  for_each_line(data, begin, end, [&](const char* p, const char* e) {
    if (!is_row(p, e, true))
      return true;
    const std::uint64_t r = row++;
    p = skip_blanks(p, e);
    if (r >= nnz) {
      fail(p, "more entries than the size line's nnz = " + std::to_string(nnz));
      return false;
    }
    std::uint64_t ij[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const char* at = p;
      const NumberStatus status = parse_unsigned(p, e, false, ij[k]);
      if (status != NumberStatus::kOk) {
        fail(at, number_error(status, k == 0 ? "a row index" : "a column index", at, e, false));
        return false;
      }
      if (ij[k] == 0 || ij[k] > n) {
        fail(at, (k == 0 ? "row index " : "column index ") + token_text(at, e, false) +
                     " is out of range 1.." + std::to_string(n));
        return false;
      }
      p = skip_blanks(p, e);
    }
    sources[r] = static_cast<NodeID>(ij[0] - 1);
    targets[r] = static_cast<NodeID>(ij[1] - 1);
    if (field == Field::kInteger) {
      const char* at = p;
      std::int64_t w = 0;
      const NumberStatus status = parse_signed(p, e, false, w);
      if (status != NumberStatus::kOk) {
        fail(at, number_error(status, "an integer value", at, e, false));
        return false;
      }
      if (w < 1) {
        fail(at,
             "integer values are edge weights and must be >= 1, found " + token_text(at, e, false));
        return false;
      }
      weights[r] = w;
      p = skip_blanks(p, e);
    } else if (field != Field::kPattern) {
      for (int k = 0; k < (field == Field::kComplex ? 2 : 1); ++k) {
        const char* at = p;
        if (!parse_real(p, e)) {
          fail(at, "expected a real value, found '" + token_text(at, e, false) + "'");
          return false;
        }
        p = skip_blanks(p, e);
      }
    }
    if (p != e) {
      fail(p, "unexpected token '" + token_text(p, e, false) + "' at the end of the entry");
      return false;
    }
    return true;
  });
}

CsrGraph parse_matrix_market(const InputBuffer& in) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const Banner banner = parse_banner(in);
  const HeaderLine size_line = find_header_line(data, banner.next);
  if (size_line.begin == kNoOffset)
    throw InputError(file, count_lines(data), "missing size line 'rows cols nnz'");
  const auto values = parse_header_numbers(
      file, data, size_line, {"the row count", "the column count", "the entry count nnz"});
  const std::uint64_t size_line_number = line_number_at(data, size_line.begin);
  if (values.size() != 3)
    throw InputError(file, size_line_number, "size line must be 'rows cols nnz'");
  if (values[0] != values[1])
    throw InputError(file, size_line_number,
                     "matrix is not square (" + std::to_string(values[0]) + " x " +
                         std::to_string(values[1]) + "); a graph needs rows == cols");
  const std::uint64_t n = values[0], nnz = values[2];
  if (n > kMaxNodeID + 1)
    throw InputError(file, size_line_number,
                     std::to_string(n) + " rows exceed the 32-bit id range; " + kWideIdHint);

  const RowIndex rows = index_rows(data, size_line.next, true);
  if (rows.rows() < nnz)
    throw InputError(file, count_lines(data),
                     "size line declares nnz = " + std::to_string(nnz) +
                         " entries but the file has " + std::to_string(rows.rows()));
  EdgeList edges;
  edges.n = static_cast<NodeID>(n);
  edges.sources.resize(nnz);
  edges.targets.resize(nnz);
  if (banner.field == Field::kInteger)
    edges.weights.resize(nnz);
  std::vector<ParseFailure> failures(rows.chunks());
  tbb::parallel_for(std::size_t{0}, rows.chunks(), [&](std::size_t c) {
    parse_entries(data, rows.bounds[c], rows.bounds[c + 1], rows.first_row[c], n, nnz, banner.field,
                  edges.sources.data(), edges.targets.data(), edges.weights.data(), failures[c]);
  });
  failures.push_back(rows.long_line);
  throw_earliest(file, data, failures);
  return build_csr(edges);
}

} // namespace

CsrGraph read_matrix_market(const std::string& path, const ReadOptions& options) {
  return parse_whole_file(path, options.threads,
                          [](const InputBuffer& in) { return parse_matrix_market(in); });
}

} // namespace gnnpart::io
