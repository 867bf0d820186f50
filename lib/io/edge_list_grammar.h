#pragma once
// The line grammar of edge lists, the one place it lives: lib/io's parallel whole-file reader
// and lib/streaming's chunked streams (plain and --sorted) both call it, so a line gets the same
// answer and the same message on every path.
//
//   line    := blank | comment | edge [comment]
//   edge    := u SEP v [SEP weight]        SEP: blanks, tabs or commas; '\r' is a blank
//   comment := ('#' | '%') anything        u, v: unsigned decimal ids; weight: integer >= 1
//
// A leading block of comments may declare "vertices: N" or SNAP's "Nodes: N" (any case): the
// vertex count is then at least N (isolated vertices survive; larger ids still count). A .csv
// file may start with one column-name row ("source,target").
#include <cstdint>
#include <string>
#include <string_view>

#include "core/types.h"
#include "io/text_parsing.h"

namespace gnnpart::io::grammar {

enum class LineKind { kSkip, kEdge, kError };

struct EdgeLine {
  std::uint64_t u = 0, v = 0;
  Weight weight = 1;
  bool weighted = false;
  const char* u_at = nullptr;
  const char* v_at = nullptr;
  // With kError: where on the line it went wrong, and the message.
  const char* error_at = nullptr;
  std::string error;
};

// The leading comment block, fed line by line until take() answers false (the first edge).
struct EdgeListHeader {
  bool csv = false; // a .csv(.gz) file: one column-name row allowed
  std::uint64_t vertices = 0; // largest "vertices: N" / "Nodes: N" seen (0: none)
  std::uint64_t edges = 0;    // "edges: M" (a hint for progress, never checked)
  bool column_names_seen = false;
  // [p, e) is one line without its '\n'; true when it belongs to the header.
  bool take(const char* p, const char* e);
};

// True for a path that names a .csv or .csv.gz file.
bool is_csv_path(const std::string& path);

[[gnu::cold]] std::string one_based_zero_message();
[[gnu::cold]] std::string wide_id_message(const char* at, const char* end);
std::string too_many_vertices_message(std::uint64_t declared);
inline constexpr const char* kEmptyInputMessage = "empty input";
inline constexpr const char* kNoMetisHeaderMessage = "empty input: no METIS header";
inline constexpr const char* kNoEdgesMessage = "empty input: no edges and no '# vertices: N' header";

namespace detail_edge {
[[gnu::cold, gnu::noinline]] LineKind fail(EdgeLine& out, const char* at, std::string message);
} // namespace detail_edge

// Parses the line at p (stops at '\n' or end); p moves past the line and its '\n'.
inline LineKind parse_edge_line(const char*& p, const char* end, EdgeLine& out) {
  using namespace io::detail;
  p = skip_blanks(p, end);
  if (p == end)
    return LineKind::kSkip;
  if (*p == '\n') {
    ++p;
    return LineKind::kSkip;
  }
  if (*p == '#' || *p == '%') {
    p = skip_line(p, end);
    return LineKind::kSkip;
  }
  out.u_at = p;
  NumberStatus status = parse_unsigned(p, end, true, out.u);
  if (status != NumberStatus::kOk) [[unlikely]]
    return detail_edge::fail(out, out.u_at,
                             number_error(status, "a source vertex id", out.u_at, end, true));
  p = skip_separators(p, end, true);
  out.v_at = p;
  status = parse_unsigned(p, end, true, out.v);
  if (status != NumberStatus::kOk) [[unlikely]]
    return detail_edge::fail(out, out.v_at,
                             number_error(status, "a target vertex id", out.v_at, end, true));
  p = skip_separators(p, end, true);
  out.weighted = false;
  out.weight = 1;
  if (p != end && *p != '\n' && *p != '#' && *p != '%') {
    const char* w_at = p;
    status = parse_signed(p, end, true, out.weight);
    if (status != NumberStatus::kOk) [[unlikely]]
      return detail_edge::fail(out, w_at,
                               number_error(status, "an integer edge weight", w_at, end, true));
    if (out.weight < 1) [[unlikely]]
      return detail_edge::fail(out, w_at,
                               "edge weight must be positive, found " + token_text(w_at, end, true));
    p = skip_separators(p, end, true);
    if (p != end && *p != '\n' && *p != '#' && *p != '%') [[unlikely]]
      return detail_edge::fail(out, p,
                               "unexpected fourth column '" + token_text(p, end, true) +
                                   "' (expected 'u v [weight]')");
    out.weighted = true;
  }
  p = (p != end && *p == '\n') ? p + 1 : skip_line(p, end);
  return LineKind::kEdge;
}

// Shifts a 1-based id to 0-based and checks the 32-bit id range.
inline bool check_edge_id(std::uint64_t& id, const char* at, bool one_based, const char* end,
                          EdgeLine& line) {
  if (one_based) {
    if (id == 0) [[unlikely]] {
      detail_edge::fail(line, at, one_based_zero_message());
      return false;
    }
    --id;
  }
  if (id > kMaxNodeID) [[unlikely]] {
    detail_edge::fail(line, at, wide_id_message(at, end));
    return false;
  }
  return true;
}

// check_edge_id on u, then v; kError with the message, else kEdge.
inline LineKind check_edge_ids(EdgeLine& line, bool one_based, const char* end) {
  if (!check_edge_id(line.u, line.u_at, one_based, end, line) ||
      !check_edge_id(line.v, line.v_at, one_based, end, line))
    return LineKind::kError;
  return LineKind::kEdge;
}

} // namespace gnnpart::io::grammar
