#pragma once
// Edge streams: the edges of a file in file order, batch by batch, over any number of passes
// (begin_pass / next_batch / end_pass). Sources: SNAP-style text edge lists (plain or gzip,
// "# vertices: N" / "# edges: M" headers honoured), the binary edge stream, and METIS files
// (each undirected edge once, as u < v, in vertex order).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "streaming/file_source.h"

namespace gnnpart::streaming {

struct EdgeBatch {
  std::vector<NodeID> sources;
  std::vector<NodeID> targets;
  std::size_t size() const { return sources.size(); }
  void clear() {
    sources.clear();
    targets.clear();
  }
};

class EdgeStream {
public:
  virtual ~EdgeStream() = default;
  virtual void begin_pass() = 0;
  // Fills batch with the next edges (clears it first); false when the pass is over.
  virtual bool next_batch(EdgeBatch& batch) = 0;
  virtual void end_pass() = 0;

  // Vertex count: from a header before the first pass (0 if none), after a complete pass
  // max(header, max id + 1).
  NodeID num_nodes() const { return num_nodes_; }
  // Edge count: from a header (0 if none), exact after a complete pass.
  EdgeID num_edges() const { return num_edges_; }
  bool counts_exact() const { return counts_exact_; }
  // Progress within the pass: units done of total (edges when the count is known, else bytes).
  virtual std::uint64_t progress_done() const = 0;
  virtual std::uint64_t progress_total() const = 0;
  virtual bool progress_in_bytes() const = 0;
  const std::string& path() const { return path_; }

protected:
  std::string path_;
  NodeID num_nodes_ = 0;
  EdgeID num_edges_ = 0;
  bool counts_exact_ = false;
};

enum class StreamFormat { kAuto, kEdgeList, kMetis, kBinary };

// "auto", "edgelist", "metis", "binary"; throws InvalidParameter for other names.
StreamFormat parse_stream_format(const std::string& name);

// kAuto: binary streams by their magic, METIS by a .graph/.metis(.gz) name, else edge list.
StreamFormat detect_stream_format(const std::string& path);

// Opens an edge stream; a binary adjacency stream or METIS file yields its u < v edges.
// one_based: text edge list ids start at 1. batch_edges: edges per batch.
std::unique_ptr<EdgeStream> open_edge_stream(const std::string& path,
                                             StreamFormat format = StreamFormat::kAuto,
                                             bool one_based = false,
                                             std::size_t batch_edges = 1 << 16);

} // namespace gnnpart::streaming
