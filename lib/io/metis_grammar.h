#pragma once
// The grammar of METIS graph files, the one place it lives: lib/io's parallel whole-file reader
// and lib/streaming's chunked vertex stream both call it.
//
//   file   := {blank | comment} header {row | comment}      comment: first non-blank is '%'
//   header := n m [fmt [ncon]]       fmt: three 0/1 digits (vertex sizes, weights, edge weights)
//   row    := [size] [w_1 .. w_ncon] {neighbour [edge weight]}    neighbours 1-based, no self
//                                                                 loops, edge weights >= 1
//
// Exactly n rows (blank lines count: vertices without neighbours; trailing blank lines after
// the n-th row are allowed); the lists hold 2m entries, no neighbour twice, symmetric (with
// equal weights). Messages for the whole-file checks are here too, so both paths word them alike.
#include <cstdint>
#include <string>

#include "core/random.h"
#include "core/types.h"
#include "io/text_parsing.h"

namespace gnnpart::io::grammar {

struct MetisFormat {
  std::uint64_t n = 0, m = 0;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  int ncon = 1;
};

// A line before the header that is skipped: blank or a comment.
inline bool is_metis_preamble(const char* p, const char* e) {
  p = io::detail::skip_blanks(p, e);
  return p == e || *p == '%';
}
// A line that is a vertex row (everything but comments).
inline bool is_metis_row(const char* p, const char* e) { return io::detail::is_row(p, e, false); }

// Parses the header line [p, e), line `line` of `file`; throws InputError.
MetisFormat parse_metis_header(const std::string& file, std::uint64_t line, const char* p,
                               const char* e);

struct RowError {
  const char* at = nullptr;
  std::string message;
};

namespace detail_metis {
[[gnu::cold, gnu::noinline]] bool fail(RowError& error, const char* at, std::string message);
[[gnu::cold, gnu::noinline]] bool fail_number(RowError& error, io::detail::NumberStatus status,
                                              const char* what, const char* at, const char* e);
[[gnu::cold, gnu::noinline]] bool fail_neighbour(RowError& error, const char* at, const char* e,
                                                 std::uint64_t u, std::uint64_t n);
} // namespace detail_metis

// Past the blanks after a number that parse_unsigned accepted in a row [p, e): p is at e or at
// a blank (a number ends at a separator, '\n' or the end, and a row holds no '\n'), so the
// first byte needs no test.
inline const char* skip_blanks_after_number(const char* p, const char* e) {
  return p == e ? p : io::detail::skip_blanks(p + 1, e);
}

// Parses the row [p, e) (one line, without its '\n') of vertex u (0-based, u < n): calls
// on_weight(value) for each of the ncon vertex weights and on_neighbour(v, weight) (0-based v,
// weight 1 without edge weights).
// False with `error` set at the first fault of the row. kEdgeWeights must equal f.edge_weights:
// a caller that fixes it for a whole range of rows gets a number loop with no per-entry test of
// the flag (parse_metis_row below picks it per row).
template <bool kEdgeWeights, typename OnWeight, typename OnNeighbour>
bool parse_metis_row_as(const char* p, const char* e, std::uint64_t u, const MetisFormat& f,
                        RowError& error, OnWeight&& on_weight, OnNeighbour&& on_neighbour) {
  using namespace io::detail;
  std::uint64_t value = 0;
  p = skip_blanks(p, e);
  if (f.vertex_sizes) {
    const char* at = p;
    const NumberStatus status = parse_unsigned(p, e, false, value);
    if (status != NumberStatus::kOk) [[unlikely]]
      return detail_metis::fail_number(error, status, "a vertex size", at, e);
    p = skip_blanks(p, e);
  }
  if (f.vertex_weights) {
    for (int c = 0; c < f.ncon; ++c) {
      const char* at = p;
      const NumberStatus status = parse_unsigned(p, e, false, value);
      if (status != NumberStatus::kOk) [[unlikely]]
        return detail_metis::fail_number(error, status, "a vertex weight", at, e);
      on_weight(static_cast<Weight>(value));
      p = skip_blanks(p, e);
    }
  }
  // A local, so that the loop keeps it in a register whatever the callbacks store.
  const std::uint64_t n = f.n;
  while (p != e) {
    const char* at = p;
    NumberStatus status = parse_unsigned(p, e, false, value);
    if (status != NumberStatus::kOk) [[unlikely]]
      return detail_metis::fail_number(error, status, "a neighbour id", at, e);
    // value - 1 wraps for 0, so one comparison covers 0 and > n.
    if (value - 1 >= n || value == u + 1) [[unlikely]]
      return detail_metis::fail_neighbour(error, at, e, u, n);
    const NodeID v = static_cast<NodeID>(value - 1);
    p = skip_blanks_after_number(p, e);
    Weight weight = 1;
    if constexpr (kEdgeWeights) {
      const char* w_at = p;
      status = parse_unsigned(p, e, false, value);
      if (status != NumberStatus::kOk) [[unlikely]]
        return detail_metis::fail_number(error, status, "an edge weight", w_at, e);
      if (value == 0) [[unlikely]]
        return detail_metis::fail(error, w_at, "edge weight must be positive, found 0");
      weight = static_cast<Weight>(value);
      p = skip_blanks_after_number(p, e);
    }
    on_neighbour(v, weight);
  }
  return true;
}

template <typename OnWeight, typename OnNeighbour>
bool parse_metis_row(const char* p, const char* e, std::uint64_t u, const MetisFormat& f,
                     RowError& error, OnWeight&& on_weight, OnNeighbour&& on_neighbour) {
  return f.edge_weights ? parse_metis_row_as<true>(p, e, u, f, error, on_weight, on_neighbour)
                        : parse_metis_row_as<false>(p, e, u, f, error, on_weight, on_neighbour);
}

std::string extra_rows_message(std::uint64_t n);
std::string too_few_rows_message(std::uint64_t n, std::uint64_t rows);
std::string edge_count_message(std::uint64_t m, std::uint64_t entries);
std::string duplicate_neighbour_message(std::uint64_t u);
std::string asymmetry_message(std::uint64_t u, std::uint64_t v, bool weight_differs);

// The adjacency is symmetric exactly when the multiset of entries (u, v, w) equals that of
// (v, u, w): lib/streaming adds entry_hash(u, v, w) to one sum and entry_hash(v, u, w) to
// another; lib/io's reader hashes each entry once, smaller id first, into the sum of its
// direction (up or down). Either way a false "symmetric" needs a 64-bit hash collision.
inline std::uint64_t entry_hash(NodeID a, NodeID b, Weight w) {
  std::uint64_t packed;
  if constexpr (sizeof(NodeID) == 4)
    packed = (static_cast<std::uint64_t>(a) << 32) | b;
  else
    packed = splitmix64(a) ^ b;
  return splitmix64(packed ^ splitmix64(static_cast<std::uint64_t>(w)));
}

} // namespace gnnpart::io::grammar
