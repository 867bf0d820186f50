#pragma once
// The edges of a text edge list, line by line through io's edge-list grammar: the leading comment
// block (its "# vertices: N"), then one validated edge per call. Shared by the edge stream and the
// --sorted vertex stream.
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "io/edge_list_grammar.h"
#include "streaming/file_source.h"

namespace gnnpart::streaming {

class EdgeLines {
public:
  EdgeLines(FileSource& source, bool one_based) : lines_(source), one_based_(one_based) {
    rewind();
  }

  void rewind() {
    lines_.rewind();
    header_ = io::grammar::EdgeListHeader{};
    header_.csv = io::grammar::is_csv_path(lines_.source().path());
    in_header_ = true;
  }

  // The next edge (0-based ids within the 32-bit range); false at the end. Throws InputError
  // "FILE:LINE: ..." with the grammar's message. on_header_end() runs once, at the first edge.
  template <typename OnHeaderEnd> bool next(std::uint64_t& u, std::uint64_t& v, OnHeaderEnd&& on_header_end) {
    using io::grammar::LineKind;
    std::string_view text;
    while (lines_.next(text)) {
      const char* p = text.data();
      const char* const end = p + text.size();
      if (in_header_) {
        if (header_.take(p, end))
          continue;
        in_header_ = false;
        on_header_end();
      }
      LineKind kind = io::grammar::parse_edge_line(p, end, line_);
      if (kind == LineKind::kSkip)
        continue;
      if (kind == LineKind::kEdge)
        kind = io::grammar::check_edge_ids(line_, one_based_, end);
      if (kind == LineKind::kError)
        throw InputError(lines_.source().path(), lines_.line_number(), std::move(line_.error));
      u = line_.u;
      v = line_.v;
      return true;
    }
    return false;
  }

  bool in_header() const { return in_header_; }
  const io::grammar::EdgeListHeader& header() const { return header_; }
  std::uint64_t line_number() const { return lines_.line_number(); }

private:
  LineReader lines_;
  bool one_based_;
  io::grammar::EdgeListHeader header_;
  io::grammar::EdgeLine line_;
  bool in_header_ = true;
};

} // namespace gnnpart::streaming
