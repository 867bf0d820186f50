#pragma once
// Vertex-ordered adjacency streams: vertex 0, 1, ..., n-1 each with its full neighbour list,
// batch by batch, with an explicit pass lifecycle (begin_pass / next_batch / end_pass) so that
// restreaming is simply another pass. Sources: the binary adjacency stream and METIS files
// (io's METIS grammar: weights checked, not used), and text edge lists already sorted by source with
// both directions of every edge. Other edge lists are first sorted into a temporary binary
// adjacency stream (see open_vertex_stream in stream_source.h).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"
#include "streaming/file_source.h"

namespace gnnpart::streaming {

struct VertexBatch {
  NodeID first = 0;               // ids first, first + 1, ..., first + size() - 1
  std::vector<EdgeID> offsets{0}; // local CSR offsets into adjacency
  std::vector<NodeID> adjacency;

  NodeID size() const { return static_cast<NodeID>(offsets.size() - 1); }
  std::span<const NodeID> neighbors(NodeID i) const {
    return {adjacency.data() + offsets[i], adjacency.data() + offsets[i + 1]};
  }
  void clear() {
    offsets.assign(1, 0);
    adjacency.clear();
  }
};

class VertexStream {
public:
  virtual ~VertexStream() = default;
  virtual void begin_pass() = 0;
  // Fills batch with the next vertices (clears it first); false when the pass is over.
  virtual bool next_batch(VertexBatch& batch) = 0;
  virtual void end_pass() = 0;

  NodeID num_nodes() const { return num_nodes_; }
  EdgeID num_edges() const { return num_entries_ / 2; } // undirected edges
  EdgeID num_entries() const { return num_entries_; }   // directed adjacency entries
  // Adjacency entries delivered in the current pass (progress).
  EdgeID entries_done() const { return entries_done_; }
  const std::string& path() const { return path_; }

protected:
  std::string path_;
  NodeID num_nodes_ = 0;
  EdgeID num_entries_ = 0;
  EdgeID entries_done_ = 0;
};

// Binary adjacency stream file (format in binary_format.h). Throws InputError when the header
// is missing or the records do not match it.
std::unique_ptr<VertexStream> open_binary_adjacency_stream(const std::string& path,
                                                           std::size_t batch_entries = 1 << 16);
// METIS graph file, plain or gzip. Throws InputError "FILE:LINE: ..." on malformed lines.
std::unique_ptr<VertexStream> open_metis_stream(const std::string& path,
                                                std::size_t batch_entries = 1 << 16);

// Text edge list (plain or gzip) sorted by source that lists both directions of every edge, read
// as it stands. A counting pass first finds n (the largest id + 1, or a larger "# vertices: N")
// and checks the order and that each vertex is as often a source as a target; InputError
// "FILE:LINE: ..." otherwise. Self loops are dropped; duplicate lines stay duplicate neighbours.
std::unique_ptr<VertexStream> open_sorted_edge_list_stream(const std::string& path, bool one_based,
                                                           std::size_t batch_entries = 1 << 16);

} // namespace gnnpart::streaming
