#pragma once
// Opens any supported input as a vertex-ordered adjacency stream. METIS files and binary
// adjacency streams are read directly; edge lists (text or binary edge stream, unsorted, each
// undirected edge once or twice) are first external-sorted and symmetrized into a temporary
// binary adjacency stream under the memory limit, which is removed with the stream.
#include <memory>
#include <string>

#include "streaming/edge_stream.h"
#include "streaming/external_sort.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

struct VertexStreamOptions {
  StreamFormat format = StreamFormat::kAuto;
  bool one_based = false;
  bool sorted_input = false; // a text edge list sorted by source with both directions: no sort
  ExternalSortOptions sort;
  std::string keep_adjacency_path; // non-empty: the sorted stream is written here and kept
  ProgressMeter* progress = nullptr;
};

struct OpenedVertexStream {
  std::unique_ptr<VertexStream> stream;
  bool sorted = false;          // an external sort ran
  ExternalSortStats sort_stats; // when sorted
};

OpenedVertexStream open_vertex_stream(const std::string& path,
                                      const VertexStreamOptions& options = {});

} // namespace gnnpart::streaming
