// Format names, detection from the file name (and from the content when the name says
// nothing), and the read_graph / write_graph dispatchers.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "core/errors.h"
#include "io/binary_cache.h"
#include "io/binary_stream_format.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/output_file.h"
#include "io/text_parsing.h"

namespace gnnpart::io {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Extension of the file name without a trailing ".gz", lower case, with the dot ("" if none).
std::string extension(const std::string& path) {
  std::string_view name = path;
  if (has_gz_suffix(name))
    name.remove_suffix(3);
  const std::size_t slash = name.find_last_of('/');
  if (slash != std::string_view::npos)
    name.remove_prefix(slash + 1);
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0)
    return "";
  return lower(name.substr(dot));
}

GraphFormat from_extension(const std::string& ext) {
  if (ext == ".txt" || ext == ".edges" || ext == ".el" || ext == ".csv" || ext == ".tsv")
    return GraphFormat::kEdgeList;
  if (ext == ".graph" || ext == ".metis")
    return GraphFormat::kMetis;
  if (ext == ".mtx")
    return GraphFormat::kMatrixMarket;
  if (ext == ".gnnp")
    return GraphFormat::kBinary;
  if (ext == ".hgr")
    return GraphFormat::kHmetis;
  if (ext == ".bin" || ext == ".bes" || ext == ".adj")
    return GraphFormat::kBinaryStream;
  return GraphFormat::kAuto;
}

std::string unknown_extension_message(const std::string& path) {
  const std::string ext = extension(path);
  return (ext.empty() ? std::string("no file extension") : "unknown extension '" + ext + "'") +
         "; expected .txt/.edges/.el/.csv (edge list), .graph/.metis, .mtx, .hgr, .gnnp or "
         ".bin/.adj (generate's streams), optionally + .gz, or name the format explicitly";
}

// The format named by the content: the binary magic or a Matrix Market banner.
GraphFormat sniff(const std::string& path) {
  if (is_binary_graph_file(path))
    return GraphFormat::kBinary;
  if (is_binary_stream_file(path))
    return GraphFormat::kBinaryStream;
  const InputBuffer in(path, InputKind::kRaw);
  if (in.data().starts_with("%%MatrixMarket"))
    return GraphFormat::kMatrixMarket;
  return GraphFormat::kAuto;
}

} // namespace

GraphFormat detect_format(const std::string& path) {
  const GraphFormat format = from_extension(extension(path));
  if (format == GraphFormat::kAuto)
    throw InputError(path, 0, unknown_extension_message(path));
  return format;
}

GraphFormat parse_format(const std::string& name) {
  const std::string key = lower(name);
  if (key == "auto")
    return GraphFormat::kAuto;
  if (key == "edgelist" || key == "edge-list" || key == "edges" || key == "el" || key == "txt" ||
      key == "snap" || key == "csv")
    return GraphFormat::kEdgeList;
  if (key == "metis" || key == "graph")
    return GraphFormat::kMetis;
  if (key == "mtx" || key == "matrix-market" || key == "matrixmarket" || key == "mm")
    return GraphFormat::kMatrixMarket;
  if (key == "binary" || key == "gnnp" || key == "bin")
    return GraphFormat::kBinary;
  if (key == "hmetis" || key == "hgr")
    return GraphFormat::kHmetis;
  if (key == "stream" || key == "bes" || key == "adj")
    return GraphFormat::kBinaryStream;
  throw InvalidParameter("unknown graph format '" + name +
                         "'; expected edgelist, metis, mtx, binary, hmetis or stream");
}

std::string_view format_name(GraphFormat format) {
  switch (format) {
  case GraphFormat::kAuto:
    return "auto";
  case GraphFormat::kEdgeList:
    return "edgelist";
  case GraphFormat::kMetis:
    return "metis";
  case GraphFormat::kMatrixMarket:
    return "mtx";
  case GraphFormat::kBinary:
    return "binary";
  case GraphFormat::kHmetis:
    return "hmetis";
  case GraphFormat::kBinaryStream:
    return "stream";
  }
  return "unknown";
}

CsrGraph read_graph(const std::string& path, const ReadOptions& options) {
  GraphFormat format = options.format;
  if (format == GraphFormat::kAuto) {
    format = from_extension(extension(path));
    if (format == GraphFormat::kAuto)
      format = sniff(path);
    if (format == GraphFormat::kAuto)
      throw InputError(path, 0, unknown_extension_message(path));
  }
  switch (format) {
  case GraphFormat::kEdgeList: {
    EdgeListData data = read_edge_list(path, options);
    return detail::with_threads(options.threads, [&] { return build_csr(data.edges); });
  }
  case GraphFormat::kMetis:
    return read_metis(path, options);
  case GraphFormat::kMatrixMarket:
    return read_matrix_market(path, options);
  case GraphFormat::kBinary:
    return detail::with_threads(options.threads, [&] { return read_binary_graph(path); });
  case GraphFormat::kBinaryStream:
    return detail::with_threads(options.threads, [&] { return read_binary_stream(path); });
  case GraphFormat::kHmetis:
    throw InputError(path, 0,
                     "an hMETIS file holds a hypergraph, not a graph; read it with read_hmetis");
  case GraphFormat::kAuto:
    break;
  }
  throw InputError(path, 0, unknown_extension_message(path));
}

void write_graph(const CsrGraph& graph, const std::string& path, GraphFormat format) {
  if (format == GraphFormat::kAuto) {
    format = from_extension(extension(path));
    if (format == GraphFormat::kAuto)
      throw InputError(path, 0, unknown_extension_message(path));
  }
  switch (format) {
  case GraphFormat::kEdgeList:
    return write_edge_list(graph, path);
  case GraphFormat::kMetis:
    return write_metis(graph, path);
  case GraphFormat::kMatrixMarket:
    return write_matrix_market(graph, path);
  case GraphFormat::kBinary:
    return write_binary_graph(graph, path);
  case GraphFormat::kHmetis:
    return write_column_net_hmetis(graph, path);
  case GraphFormat::kBinaryStream:
    throw Unsupported(path + ": binary streams are written by `gnnpart generate`; convert to "
                             ".gnnp for a binary graph");
  case GraphFormat::kAuto:
    break;
  }
  throw InputError(path, 0, unknown_extension_message(path));
}

} // namespace gnnpart::io
