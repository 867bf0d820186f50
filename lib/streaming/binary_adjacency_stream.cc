#include <cstring>

#include "core/errors.h"
#include "streaming/binary_format.h"
#include "streaming/binary_stream_header.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

class BinaryAdjacencyStream final : public VertexStream {
public:
  BinaryAdjacencyStream(const std::string& path, std::size_t batch_entries)
      : source_(path), batch_entries_(batch_entries) {
    path_ = path;
    const BinaryHeader header = read_binary_stream_header(source_, BinaryKind::kAdjacencyStream);
    num_nodes_ = static_cast<NodeID>(header.n);
    num_entries_ = header.entries;
    // One degree word per vertex and one word per entry: the header must match the file
    // before a degree read from it sizes anything.
    const std::uint64_t expected = kBinaryHeaderBytes + (header.n + header.entries) * sizeof(NodeID);
    if (header.entries > (std::uint64_t{1} << 60) || source_.file_size() != expected)
      throw InputError(path, 0,
                       "file size " + std::to_string(source_.file_size()) + " does not match " +
                           std::to_string(header.n) + " vertices and " +
                           std::to_string(header.entries) + " entries in the header");
    buffer_.resize(kBufferWords);
  }

  void begin_pass() override {
    source_.seek(kBinaryHeaderBytes);
    next_vertex_ = 0;
    entries_done_ = 0;
    word_pos_ = word_end_ = 0;
  }

  bool next_batch(VertexBatch& batch) override {
    batch.clear();
    batch.first = next_vertex_;
    while (next_vertex_ < num_nodes_ && batch.adjacency.size() < batch_entries_) {
      const NodeID degree = next_word("vertex degree");
      if (entries_done_ + degree > num_entries_) {
        throw InputError(path_, 0,
                         "vertex " + std::to_string(next_vertex_) +
                             ": more adjacency entries than the header declares");
      }
      const std::size_t old = batch.adjacency.size();
      batch.adjacency.resize(old + degree);
      NodeID* out = batch.adjacency.data() + old;
      std::size_t left = degree;
      while (left > 0) {
        if (word_pos_ == word_end_)
          fill("neighbour list");
        const std::size_t take = std::min<std::size_t>(left, word_end_ - word_pos_);
        std::memcpy(out, buffer_.data() + word_pos_, take * sizeof(NodeID));
        for (std::size_t i = 0; i < take; ++i) {
          if (out[i] >= num_nodes_) {
            throw InputError(path_, 0,
                             "vertex " + std::to_string(next_vertex_) + ": neighbour id " +
                                 std::to_string(out[i]) + " >= n = " + std::to_string(num_nodes_));
          }
        }
        out += take;
        word_pos_ += take;
        left -= take;
      }
      entries_done_ += degree;
      batch.offsets.push_back(batch.adjacency.size());
      ++next_vertex_;
    }
    return batch.size() > 0;
  }

  void end_pass() override {
    if (next_vertex_ == num_nodes_ && entries_done_ != num_entries_) {
      throw InputError(path_, 0, "fewer adjacency entries than the header declares");
    }
  }

private:
  static constexpr std::size_t kBufferWords = 1 << 20;

  void fill(const char* what) {
    const std::size_t got =
        source_.read(reinterpret_cast<char*>(buffer_.data()), kBufferWords * sizeof(NodeID));
    if (got % sizeof(NodeID) != 0 || got == 0) {
      throw InputError(path_, 0, std::string("truncated binary adjacency stream (") + what + ")");
    }
    word_pos_ = 0;
    word_end_ = got / sizeof(NodeID);
  }
  NodeID next_word(const char* what) {
    if (word_pos_ == word_end_)
      fill(what);
    return buffer_[word_pos_++];
  }

  FileSource source_;
  std::size_t batch_entries_;
  std::vector<NodeID> buffer_;
  std::size_t word_pos_ = 0;
  std::size_t word_end_ = 0;
  NodeID next_vertex_ = 0;
};

} // namespace

std::unique_ptr<VertexStream> open_binary_adjacency_stream(const std::string& path,
                                                           std::size_t batch_entries) {
  return std::make_unique<BinaryAdjacencyStream>(path, batch_entries);
}

} // namespace gnnpart::streaming
