#pragma once
// The line grammars of the edge-list and METIS readers applied to one byte range of a buffer,
// for readers that hold only a slice of a file (lib/distributed). Failures come back as a
// ParseFailure (an offset into data) instead of an exception, so that the caller can turn the
// offset into the line number of the whole file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"
#include "io/text_parsing.h"

namespace gnnpart::io::detail {

// Offset of the first edge line of an edge list that starts with data (past the leading
// comment block and a CSV column-name row); declared_vertices = its "# vertices: N" (0: none).
std::size_t edge_list_data_begin(std::string_view data, std::string_view path,
                                 std::uint64_t& declared_vertices);

struct EdgeRange {
  std::vector<NodeID> sources, targets; // in file order
  std::vector<Weight> weights;          // empty while no line of the range has a weight
  std::uint64_t max_id = 0;
  bool any = false;
  ParseFailure failure;
};
// Edge lines of data[begin, end) (begin just after a '\n' or at the start), as read_edge_list.
EdgeRange parse_edge_list_range(std::string_view data, std::size_t begin, std::size_t end,
                                bool one_based);

struct MetisHeader {
  std::uint64_t n = 0, m = 0;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  int ncon = 1;
  std::size_t rows_begin = 0; // offset just past the header line
  std::uint64_t line = 0;     // line of the header
};
// The header of a METIS file whose first bytes are data; throws InputError as read_metis.
MetisHeader read_metis_header(const std::string& path, std::string_view data);

struct MetisRange {
  std::vector<EdgeID> degrees; // one per vertex row, in order
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  std::vector<Weight> vertex_weights; // ncon per row
  ParseFailure failure;
};
// Vertex rows of data[begin, end); first_row = the vertex of the range's first row.
MetisRange parse_metis_range(std::string_view data, std::size_t begin, std::size_t end,
                             std::uint64_t first_row, const MetisHeader& header);

} // namespace gnnpart::io::detail
