#include "io/edge_list_grammar.h"

#include <algorithm>
#include <cctype>

#include "io/graph_io.h"
#include "io/output_file.h"

namespace gnnpart::io::grammar {

namespace {

using namespace io::detail;

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "KEY: N ..." in the text of a comment; KEY is matched without case. SNAP writes
// "# Nodes: 10 Edges: 20" on one line, so every "KEY: N" pair of the line is looked at.
bool comment_count(const char* p, const char* end, std::string_view key, std::uint64_t& count) {
  while (p != end) {
    p = skip_blanks(p, end);
    const char* word_end = p;
    while (word_end != end && std::isalpha(static_cast<unsigned char>(*word_end)))
      ++word_end;
    const bool match = equals_ignore_case(std::string_view(p, word_end - p), key);
    const char* q = skip_blanks(word_end, end);
    if (word_end == p || q == end || *q != ':')
      return false;
    q = skip_blanks(q + 1, end);
    std::uint64_t value = 0;
    if (parse_unsigned(q, end, false, value) != NumberStatus::kOk)
      return false;
    if (match) {
      count = value;
      return true;
    }
    p = q;
  }
  return false;
}

} // namespace

bool EdgeListHeader::take(const char* p, const char* e) {
  p = skip_blanks(p, e);
  if (p == e)
    return true;
  if (*p == '#' || *p == '%') {
    std::uint64_t count = 0;
    if (comment_count(p + 1, e, "vertices", count) || comment_count(p + 1, e, "nodes", count))
      vertices = std::max(vertices, count);
    if (comment_count(p + 1, e, "edges", count))
      edges = count;
    return true;
  }
  if (csv && !column_names_seen && std::isalpha(static_cast<unsigned char>(*p))) {
    column_names_seen = true;
    return true;
  }
  return false;
}

bool is_csv_path(const std::string& path) {
  std::string_view name = path;
  if (has_gz_suffix(name))
    name.remove_suffix(3);
  return name.size() >= 4 && equals_ignore_case(name.substr(name.size() - 4), ".csv");
}

std::string one_based_zero_message() {
  return "vertex id 0 in a 1-based edge list";
}

std::string wide_id_message(const char* at, const char* end) {
  return "vertex id " + token_text(at, end, true) +
         " is past the 32-bit id range; use relabel for sparse labels, or " + kWideIdHint;
}

std::string too_many_vertices_message(std::uint64_t declared) {
  return "header declares " + std::to_string(declared) + " vertices, past the 32-bit id range; " +
         kWideIdHint;
}

namespace detail_edge {
LineKind fail(EdgeLine& out, const char* at, std::string message) {
  out.error_at = at;
  out.error = std::move(message);
  return LineKind::kError;
}
} // namespace detail_edge

} // namespace gnnpart::io::grammar
