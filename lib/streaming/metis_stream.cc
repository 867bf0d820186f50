// A METIS graph file as a vertex stream, row by row through io's METIS grammar (the whole-file
// reader's). Row faults are reported as they are read; the whole-file checks (2m entries, no
// repeated neighbour, symmetry) at the end of each complete pass.
#include <algorithm>
#include <string>

#include "core/errors.h"
#include "io/edge_list_grammar.h"
#include "io/graph_io.h"
#include "io/metis_grammar.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

namespace grammar = io::grammar;

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
    while (lines_.next(line) && grammar::is_metis_preamble(line.data(), line.data() + line.size())) {
    } // up to and including the header line
    next_vertex_ = 0;
    entries_done_ = 0;
    forward_ = backward_ = 0;
    repeated_neighbour_ = false;
  }

  bool next_batch(VertexBatch& batch) override {
    batch.clear();
    batch.first = next_vertex_;
    std::string_view line;
    while (next_vertex_ < num_nodes_ && batch.adjacency.size() < batch_entries_) {
      if (!lines_.next(line))
        throw InputError(path_, lines_.line_number(),
                         grammar::too_few_rows_message(format_.n, next_vertex_));
      const char* p = line.data();
      const char* const e = p + line.size();
      if (!grammar::is_metis_row(p, e))
        continue;
      const std::size_t row_begin = batch.adjacency.size();
      const NodeID u = next_vertex_;
      const bool ok = grammar::parse_metis_row(
          p, e, u, format_, error_, [](Weight) {},
          [&](NodeID v, Weight w) {
            batch.adjacency.push_back(v);
            forward_ += grammar::entry_hash(u, v, w);
            backward_ += grammar::entry_hash(v, u, w);
          });
      if (!ok)
        throw InputError(path_, lines_.line_number(), std::move(error_.message));
      note_repeats(batch.adjacency, row_begin);
      entries_done_ += batch.adjacency.size() - row_begin;
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
      const char* p = line.data();
      const char* const e = p + line.size();
      if (grammar::is_metis_row(p, e) && io::detail::skip_blanks(p, e) != e)
        throw InputError(path_, lines_.line_number(), grammar::extra_rows_message(format_.n));
    }
    if (entries_done_ != 2 * format_.m)
      throw InputError(path_, header_line_, grammar::edge_count_message(format_.m, entries_done_));
    if (repeated_neighbour_ || forward_ != backward_) {
      // A pass cannot name the vertex at fault; the whole-file reader finds it and throws the
      // same message `partition` gives.
      io::read_metis(path_);
      throw InputError(path_, 0, "asymmetric adjacency or repeated neighbour");
    }
  }

private:
  void read_header() {
    std::string_view line;
    bool found = false;
    while (lines_.next(line)) {
      if (!grammar::is_metis_preamble(line.data(), line.data() + line.size())) {
        found = true;
        break;
      }
    }
    if (!found)
      throw InputError(path_, 0,
                       lines_.line_number() == 0 ? grammar::kEmptyInputMessage
                                                 : grammar::kNoMetisHeaderMessage);
    header_line_ = lines_.line_number();
    format_ = grammar::parse_metis_header(path_, header_line_, line.data(),
                                          line.data() + line.size());
    num_nodes_ = static_cast<NodeID>(format_.n);
    num_entries_ = 2 * format_.m;
  }

  // Sets repeated_neighbour_ when the row adjacency[row_begin..] lists a vertex twice.
  void note_repeats(const std::vector<NodeID>& adjacency, std::size_t row_begin) {
    if (repeated_neighbour_ || adjacency.size() - row_begin < 2)
      return;
    row_.assign(adjacency.begin() + static_cast<std::ptrdiff_t>(row_begin), adjacency.end());
    std::sort(row_.begin(), row_.end());
    repeated_neighbour_ = std::adjacent_find(row_.begin(), row_.end()) != row_.end();
  }

  FileSource source_;
  LineReader lines_;
  std::size_t batch_entries_;
  grammar::MetisFormat format_;
  grammar::RowError error_;
  std::uint64_t header_line_ = 0;
  std::uint64_t forward_ = 0, backward_ = 0; // entry-hash sums (symmetry)
  bool repeated_neighbour_ = false;
  std::vector<NodeID> row_;
  NodeID next_vertex_ = 0;
};

} // namespace

std::unique_ptr<VertexStream> open_metis_stream(const std::string& path,
                                                std::size_t batch_entries) {
  return std::make_unique<MetisStream>(path, batch_entries);
}

} // namespace gnnpart::streaming
