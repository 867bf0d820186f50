#include "streaming/edge_stream.h"

#include <algorithm>

#include "core/errors.h"
#include "io/edge_list_grammar.h"
#include "io/graph_io.h"
#include "streaming/binary_format.h"
#include "streaming/binary_stream_header.h"
#include "streaming/edge_lines.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

// A text edge list, line by line through io's edge-list grammar (the whole-file reader's).
class TextEdgeStream final : public EdgeStream {
public:
  TextEdgeStream(const std::string& path, bool one_based, std::size_t batch_edges)
      : source_(path), lines_(source_, one_based), batch_edges_(batch_edges) {
    path_ = path;
  }

  void begin_pass() override {
    lines_.rewind();
    edges_done_ = 0;
    max_id_plus_one_ = 0;
  }

  bool next_batch(EdgeBatch& batch) override {
    batch.clear();
    std::uint64_t u = 0, v = 0;
    while (batch.size() < batch_edges_ && lines_.next(u, v, [&] { end_header(); })) {
      max_id_plus_one_ = std::max(max_id_plus_one_, std::max(u, v) + 1);
      batch.sources.push_back(static_cast<NodeID>(u));
      batch.targets.push_back(static_cast<NodeID>(v));
    }
    edges_done_ += batch.size();
    return batch.size() > 0;
  }

  void end_pass() override {
    if (lines_.in_header())
      end_header();
    if (lines_.line_number() == 0)
      throw InputError(path_, 0, io::grammar::kEmptyInputMessage);
    const std::uint64_t n = std::max<std::uint64_t>(lines_.header().vertices, max_id_plus_one_);
    if (n == 0)
      throw InputError(path_, 0, io::grammar::kNoEdgesMessage);
    num_nodes_ = static_cast<NodeID>(n);
    num_edges_ = edges_done_;
    counts_exact_ = true;
  }

  std::uint64_t progress_done() const override {
    return progress_in_bytes() ? source_.bytes_consumed() : edges_done_;
  }
  std::uint64_t progress_total() const override {
    return progress_in_bytes() ? source_.file_size() : num_edges_;
  }
  bool progress_in_bytes() const override { return num_edges_ == 0; }

private:
  // The leading comment block is over: its counts become the first estimates.
  void end_header() {
    const io::grammar::EdgeListHeader& header = lines_.header();
    if (header.vertices > kMaxNodeID + std::uint64_t{1})
      throw InputError(path_, 0, io::grammar::too_many_vertices_message(header.vertices));
    if (!counts_exact_) {
      num_nodes_ = static_cast<NodeID>(header.vertices);
      num_edges_ = header.edges;
    }
  }

  FileSource source_;
  EdgeLines lines_;
  std::size_t batch_edges_;
  std::uint64_t max_id_plus_one_ = 0;
  std::uint64_t edges_done_ = 0;
};

class BinaryEdgeStream final : public EdgeStream {
public:
  BinaryEdgeStream(const std::string& path, std::size_t batch_edges)
      : source_(path), batch_edges_(batch_edges) {
    path_ = path;
    const BinaryHeader header = read_binary_stream_header(source_, BinaryKind::kEdgeStream);
    num_nodes_ = static_cast<NodeID>(header.n);
    num_edges_ = header.m;
    counts_exact_ = true;
    const std::uint64_t expected = kBinaryHeaderBytes + header.m * 2 * sizeof(NodeID);
    if (header.m > (std::uint64_t{1} << 60) || source_.file_size() != expected) {
      throw InputError(path, 0,
                       "file size " + std::to_string(source_.file_size()) + " does not match " +
                           std::to_string(header.m) + " edges in the header");
    }
    buffer_.resize(2 * batch_edges_);
  }

  void begin_pass() override {
    source_.seek(kBinaryHeaderBytes);
    edges_done_ = 0;
  }

  bool next_batch(EdgeBatch& batch) override {
    batch.clear();
    const std::uint64_t want = std::min<std::uint64_t>(batch_edges_, num_edges_ - edges_done_);
    if (want == 0)
      return false;
    source_.read_exact(reinterpret_cast<char*>(buffer_.data()), want * 2 * sizeof(NodeID),
                       "edge records");
    batch.sources.resize(want);
    batch.targets.resize(want);
    for (std::size_t i = 0; i < want; ++i) {
      const NodeID u = buffer_[2 * i], v = buffer_[2 * i + 1];
      if (u >= num_nodes_ || v >= num_nodes_) {
        throw InputError(path_, 0,
                         "edge " + std::to_string(edges_done_ + i) +
                             ": vertex id >= n = " + std::to_string(num_nodes_));
      }
      batch.sources[i] = u;
      batch.targets[i] = v;
    }
    edges_done_ += want;
    return true;
  }

  void end_pass() override {}
  std::uint64_t progress_done() const override { return edges_done_; }
  std::uint64_t progress_total() const override { return num_edges_; }
  bool progress_in_bytes() const override { return false; }

private:
  FileSource source_;
  std::size_t batch_edges_;
  std::vector<NodeID> buffer_;
  std::uint64_t edges_done_ = 0;
};

// The u < v edges of a vertex-ordered adjacency stream.
class AdjacencyEdgeStream final : public EdgeStream {
public:
  AdjacencyEdgeStream(std::unique_ptr<VertexStream> vertices, std::size_t batch_edges)
      : vertices_(std::move(vertices)), batch_edges_(batch_edges) {
    path_ = vertices_->path();
    num_nodes_ = vertices_->num_nodes();
    num_edges_ = vertices_->num_edges();
  }

  void begin_pass() override {
    vertices_->begin_pass();
    pending_.clear();
    pending_pos_ = 0;
    edges_done_ = 0;
    done_ = false;
  }

  bool next_batch(EdgeBatch& batch) override {
    batch.clear();
    while (batch.size() < batch_edges_) {
      if (pending_pos_ == pending_.size()) {
        if (done_ || !vertices_->next_batch(vertex_batch_)) {
          done_ = true;
          break;
        }
        pending_.clear();
        pending_pos_ = 0;
        for (NodeID i = 0; i < vertex_batch_.size(); ++i) {
          const NodeID u = vertex_batch_.first + i;
          for (const NodeID v : vertex_batch_.neighbors(i)) {
            if (u < v)
              pending_.push_back({u, v});
          }
        }
        continue;
      }
      const auto [u, v] = pending_[pending_pos_++];
      batch.sources.push_back(u);
      batch.targets.push_back(v);
    }
    edges_done_ += batch.size();
    return batch.size() > 0;
  }

  void end_pass() override {
    vertices_->end_pass();
    num_edges_ = edges_done_;
    counts_exact_ = true;
  }
  std::uint64_t progress_done() const override { return edges_done_; }
  std::uint64_t progress_total() const override { return num_edges_; }
  bool progress_in_bytes() const override { return false; }

private:
  std::unique_ptr<VertexStream> vertices_;
  std::size_t batch_edges_;
  VertexBatch vertex_batch_;
  std::vector<std::pair<NodeID, NodeID>> pending_;
  std::size_t pending_pos_ = 0;
  std::uint64_t edges_done_ = 0;
  bool done_ = false;
};

} // namespace

StreamFormat parse_stream_format(const std::string& name) {
  if (name == "auto")
    return StreamFormat::kAuto;
  if (name == "edgelist" || name == "edges")
    return StreamFormat::kEdgeList;
  if (name == "metis")
    return StreamFormat::kMetis;
  if (name == "binary")
    return StreamFormat::kBinary;
  throw InvalidParameter("unknown stream format '" + name + "' (auto, edgelist, metis, binary)");
}

StreamFormat detect_stream_format(const std::string& path) {
  {
    FileSource source(path);
    if (!source.compressed()) {
      char bytes[kBinaryHeaderBytes];
      const std::size_t got = source.read(bytes, kBinaryHeaderBytes);
      if (decode_header(bytes, got, path).kind != BinaryKind::kNone)
        return StreamFormat::kBinary;
    }
  }
  // The extension rules of the whole-file readers (the same message for an unknown one).
  switch (const io::GraphFormat format = io::detect_format(path)) {
  case io::GraphFormat::kEdgeList:
    return StreamFormat::kEdgeList;
  case io::GraphFormat::kMetis:
    return StreamFormat::kMetis;
  case io::GraphFormat::kBinaryStream: // .bin/.adj without the magic: its reader says so
    return StreamFormat::kBinary;
  default:
    throw InputError(path, 0,
                     std::string(io::format_name(format)) +
                         " input cannot be streamed (stream reads edge lists, METIS files and "
                         "binary streams); partition reads it, or convert it first");
  }
}

std::unique_ptr<EdgeStream> open_edge_stream(const std::string& path, StreamFormat format,
                                             bool one_based, std::size_t batch_edges) {
  if (format == StreamFormat::kAuto)
    format = detect_stream_format(path);
  switch (format) {
  case StreamFormat::kMetis:
    return std::make_unique<AdjacencyEdgeStream>(open_metis_stream(path), batch_edges);
  case StreamFormat::kBinary: {
    FileSource source(path);
    char bytes[kBinaryHeaderBytes];
    const std::size_t got = source.read(bytes, kBinaryHeaderBytes);
    const BinaryHeader header = decode_header(bytes, got, path);
    if (header.kind == BinaryKind::kAdjacencyStream) {
      return std::make_unique<AdjacencyEdgeStream>(open_binary_adjacency_stream(path), batch_edges);
    }
    return std::make_unique<BinaryEdgeStream>(path, batch_edges);
  }
  case StreamFormat::kEdgeList:
  case StreamFormat::kAuto:
    break;
  }
  return std::make_unique<TextEdgeStream>(path, one_based, batch_edges);
}

} // namespace gnnpart::streaming
