#include <string>

#include "core/errors.h"
#include "streaming/text_parse.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

class MetisStream final : public VertexStream {
public:
  MetisStream(const std::string& path, std::size_t batch_entries)
      : source_(path), lines_(source_), batch_entries_(batch_entries) {
    path_ = path;
    read_header();
  }

  void begin_pass() override {
    lines_.rewind();
    std::string_view line;
    while (lines_.next(line)) {
      if (!is_comment(line))
        break; // the header line
    }
    next_vertex_ = 0;
    entries_done_ = 0;
  }

  bool next_batch(VertexBatch& batch) override {
    batch.clear();
    batch.first = next_vertex_;
    std::string_view line;
    while (next_vertex_ < num_nodes_ && batch.adjacency.size() < batch_entries_) {
      if (!lines_.next(line)) {
        throw InputError(path_, lines_.line_number(),
                         "expected " + std::to_string(num_nodes_) + " vertex lines, found " +
                             std::to_string(next_vertex_));
      }
      if (!line.empty() && line[0] == '%')
        continue;
      parse_vertex(line, batch);
      batch.offsets.push_back(batch.adjacency.size());
      ++next_vertex_;
    }
    return batch.size() > 0;
  }

  void end_pass() override {
    if (next_vertex_ < num_nodes_)
      return; // pass abandoned early
    std::string_view line;
    while (lines_.next(line)) {
      if (!is_comment(line) && !at_end(line, 0)) {
        throw InputError(path_, lines_.line_number(),
                         "more vertex lines than the header's " + std::to_string(num_nodes_));
      }
    }
    if (entries_done_ + self_loops_ != 2 * header_edges_) {
      throw InputError(path_, lines_.line_number(),
                       "header declares " + std::to_string(header_edges_) + " edges, lists hold " +
                           std::to_string(entries_done_ + self_loops_) + " adjacency entries");
    }
    self_loops_ = 0;
  }

private:
  static bool is_comment(std::string_view line) { return !line.empty() && line[0] == '%'; }

  void read_header() {
    std::string_view line;
    while (lines_.next(line)) {
      if (!is_comment(line))
        break;
      line = {};
    }
    std::size_t pos = 0;
    std::uint64_t n = 0, m = 0, fmt = 0, ncon = 1;
    if (!parse_unsigned(line, pos, n) || !parse_unsigned(line, pos, m)) {
      throw InputError(path_, lines_.line_number(), "expected METIS header 'n m [fmt [ncon]]'");
    }
    if (!at_end(line, pos)) {
      if (!parse_unsigned(line, pos, fmt)) {
        throw InputError(path_, lines_.line_number(), "bad fmt field in the METIS header");
      }
      if (!at_end(line, pos) && !parse_unsigned(line, pos, ncon)) {
        throw InputError(path_, lines_.line_number(), "bad ncon field in the METIS header");
      }
    }
    if (fmt % 10 > 1 || (fmt / 10) % 10 > 1 || fmt / 100 > 1) {
      throw InputError(path_, lines_.line_number(), "bad fmt field in the METIS header");
    }
    if (n > kMaxNodeID + 1) {
      throw InputError(path_, lines_.line_number(),
                       std::string("too many vertices; ") + kWideIdHint);
    }
    edge_weights_ = fmt % 10 == 1;
    vertex_weights_ = (fmt / 10) % 10 == 1 ? static_cast<int>(ncon) : 0;
    vertex_sizes_ = fmt / 100 == 1;
    num_nodes_ = static_cast<NodeID>(n);
    header_edges_ = m;
    num_entries_ = 2 * m;
  }

  void parse_vertex(std::string_view line, VertexBatch& batch) {
    std::size_t pos = 0;
    std::uint64_t value = 0;
    const int skip = (vertex_sizes_ ? 1 : 0) + vertex_weights_;
    for (int i = 0; i < skip; ++i) {
      if (!parse_unsigned(line, pos, value)) {
        throw InputError(path_, lines_.line_number(), "expected a vertex size/weight");
      }
    }
    for (;;) {
      skip_separators(line, pos);
      if (pos >= line.size())
        break;
      if (!parse_unsigned(line, pos, value) || value == 0 || value > num_nodes_) {
        throw InputError(path_, lines_.line_number(),
                         "neighbour must be an integer in [1, " + std::to_string(num_nodes_) + "]");
      }
      const NodeID v = static_cast<NodeID>(value - 1);
      if (edge_weights_ && !parse_unsigned(line, pos, value)) {
        throw InputError(path_, lines_.line_number(), "expected an edge weight");
      }
      if (v == next_vertex_) {
        ++self_loops_;
        continue;
      }
      batch.adjacency.push_back(v);
      ++entries_done_;
    }
  }

  FileSource source_;
  LineReader lines_;
  std::size_t batch_entries_;
  std::uint64_t header_edges_ = 0;
  std::uint64_t self_loops_ = 0;
  bool edge_weights_ = false;
  int vertex_weights_ = 0;
  bool vertex_sizes_ = false;
  NodeID next_vertex_ = 0;
};

} // namespace

std::unique_ptr<VertexStream> open_metis_stream(const std::string& path,
                                                std::size_t batch_entries) {
  return std::make_unique<MetisStream>(path, batch_entries);
}

} // namespace gnnpart::streaming
