#include "io/metis_grammar.h"

#include <limits>
#include <vector>

#include "core/errors.h"

namespace gnnpart::io::grammar {

using namespace io::detail;

MetisFormat parse_metis_header(const std::string& file, std::uint64_t line, const char* p,
                               const char* e) {
  const auto values = parse_header_numbers(
      file, line, p, e,
      {"the vertex count n", "the edge count m", "the fmt code", "the constraint count ncon"});
  if (values.size() < 2)
    throw InputError(file, line, "header must hold at least 'n m', found too few fields");
  MetisFormat f;
  f.n = values[0];
  f.m = values[1];
  if (f.m > std::numeric_limits<std::uint64_t>::max() / 2)
    throw InputError(file, line, "header declares " + std::to_string(f.m) + " edges, too many");
  if (f.n > kMaxNodeID + 1)
    throw InputError(file, line,
                     "header declares " + std::to_string(f.n) +
                         " vertices, past the 32-bit id range; " + kWideIdHint);
  if (values.size() >= 3) {
    const std::uint64_t fmt = values[2];
    if (fmt % 10 > 1 || (fmt / 10) % 10 > 1 || fmt / 100 > 1)
      throw InputError(file, line,
                       "fmt code " + std::to_string(fmt) +
                           " is invalid (three 0/1 digits: vertex sizes, vertex weights, "
                           "edge weights)");
    f.edge_weights = fmt % 10 == 1;
    f.vertex_weights = (fmt / 10) % 10 == 1;
    f.vertex_sizes = fmt / 100 == 1;
  }
  if (values.size() >= 4) {
    if (values[3] < 1 || values[3] > 1024)
      throw InputError(file, line, "ncon must be between 1 and 1024");
    if (!f.vertex_weights && values[3] != 1)
      throw InputError(file, line, "ncon > 1 but the fmt code has no vertex weights");
    f.ncon = static_cast<int>(values[3]);
  }
  return f;
}

namespace detail_metis {

bool fail(RowError& error, const char* at, std::string message) {
  error.at = at;
  error.message = std::move(message);
  return false;
}

bool fail_number(RowError& error, NumberStatus status, const char* what, const char* at,
                 const char* e) {
  return fail(error, at, number_error(status, what, at, e, false));
}

bool fail_neighbour(RowError& error, const char* at, const char* e, std::uint64_t u,
                    std::uint64_t n) {
  std::uint64_t value = 0;
  const char* q = at;
  parse_unsigned(q, e, false, value);
  if (value == u + 1)
    return fail(error, at, "vertex " + std::to_string(u + 1) + " has a self loop");
  return fail(error, at,
              "neighbour id " + token_text(at, e, false) + " of vertex " + std::to_string(u + 1) +
                  " is out of range 1.." + std::to_string(n));
}

} // namespace detail_metis

std::string extra_rows_message(std::uint64_t n) {
  return "more vertex lines than the header's n = " + std::to_string(n);
}

std::string too_few_rows_message(std::uint64_t n, std::uint64_t rows) {
  return "header declares n = " + std::to_string(n) + " vertices but the file has " +
         std::to_string(rows) + " vertex lines";
}

std::string edge_count_message(std::uint64_t m, std::uint64_t entries) {
  return "header declares m = " + std::to_string(m) + " edges but the adjacency lists hold " +
         std::to_string(entries) + " entries (expected 2m = " + std::to_string(2 * m) + ")";
}

std::string duplicate_neighbour_message(std::uint64_t u) {
  return "vertex " + std::to_string(u + 1) + " lists a neighbour more than once";
}

std::string asymmetry_message(std::uint64_t u, std::uint64_t v, bool weight_differs) {
  return "asymmetric adjacency: vertex " + std::to_string(u + 1) + " lists " +
         std::to_string(v + 1) + " but vertex " + std::to_string(v + 1) +
         (weight_differs ? " lists it with a different edge weight"
                         : " does not list " + std::to_string(u + 1));
}

} // namespace gnnpart::io::grammar
