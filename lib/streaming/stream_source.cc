#include "streaming/stream_source.h"

#include "streaming/binary_format.h"
#include "streaming/progress.h"

namespace gnnpart::streaming {
namespace {

// A stream over a temporary sorted file that it owns.
class OwningVertexStream final : public VertexStream {
public:
  OwningVertexStream(TempFile file, std::unique_ptr<VertexStream> inner, std::string path)
      : file_(std::move(file)), inner_(std::move(inner)) {
    path_ = std::move(path);
    num_nodes_ = inner_->num_nodes();
    num_entries_ = inner_->num_entries();
  }
  void begin_pass() override {
    inner_->begin_pass();
    entries_done_ = 0;
  }
  bool next_batch(VertexBatch& batch) override {
    const bool more = inner_->next_batch(batch);
    entries_done_ = inner_->entries_done();
    return more;
  }
  void end_pass() override { inner_->end_pass(); }

private:
  TempFile file_; // destroyed after inner_ closed it
  std::unique_ptr<VertexStream> inner_;
};

bool is_adjacency_file(const std::string& path) {
  FileSource source(path);
  if (source.compressed())
    return false;
  char bytes[kBinaryHeaderBytes];
  const std::size_t got = source.read(bytes, kBinaryHeaderBytes);
  return decode_header(bytes, got, path).kind == BinaryKind::kAdjacencyStream;
}

} // namespace

OpenedVertexStream open_vertex_stream(const std::string& path, const VertexStreamOptions& options) {
  OpenedVertexStream opened;
  StreamFormat format = options.format;
  if (format == StreamFormat::kAuto)
    format = detect_stream_format(path);
  if (format == StreamFormat::kMetis) {
    opened.stream = open_metis_stream(path);
    return opened;
  }
  if (format == StreamFormat::kBinary && is_adjacency_file(path)) {
    opened.stream = open_binary_adjacency_stream(path);
    return opened;
  }
  if (options.sorted_input && format == StreamFormat::kEdgeList) {
    opened.stream = open_sorted_edge_list_stream(path, options.one_based);
    return opened;
  }
  auto edges = open_edge_stream(path, format, options.one_based);
  opened.sorted = true;
  if (!options.keep_adjacency_path.empty()) {
    opened.sort_stats =
        sort_edge_stream(*edges, options.keep_adjacency_path, options.sort, options.progress);
    opened.stream = open_binary_adjacency_stream(options.keep_adjacency_path);
    return opened;
  }
  TempFile file(options.sort.temp_dir, "adjacency");
  opened.sort_stats = sort_edge_stream(*edges, file.path(), options.sort, options.progress);
  auto inner = open_binary_adjacency_stream(file.path());
  opened.stream = std::make_unique<OwningVertexStream>(std::move(file), std::move(inner), path);
  return opened;
}

} // namespace gnnpart::streaming
