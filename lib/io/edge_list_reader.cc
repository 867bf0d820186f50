// SNAP-style edge lists: "u v [weight]" per line, blanks or commas between columns, '#' and '%'
// comments, optional "# vertices: N" (or SNAP "# Nodes: N") header, plain or gzip.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include "core/errors.h"
#include "core/types.h"
#include "io/graph_io.h"
#include "io/edge_list_grammar.h"
#include "io/input_buffer.h"
#include "io/output_file.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"
#include "io/whole_file.h"

namespace gnnpart::io {

namespace {

using namespace detail;

struct Header {
  std::uint64_t vertices = 0; // 0: not given
  std::size_t data_begin = 0; // offset where parsing starts
};

// Reads the leading comment block for a vertex count; skips a CSV column-name row.
Header scan_header(std::string_view data, std::string_view path) {
  grammar::EdgeListHeader header;
  header.csv = grammar::is_csv_path(std::string(path));
  std::size_t begin = 0;
  for_each_line(data, 0, data.size(), [&](const char* p, const char* e) {
    if (!header.take(p, e))
      return false;
    begin = std::min(static_cast<std::size_t>(e - data.data()) + 1, data.size());
    return true;
  });
  return {header.vertices, begin};
}

template <typename Id> struct ChunkResult {
  std::size_t count = 0;
  std::uint64_t max_id = 0;
  bool any = false;
  std::vector<Weight> weights; // empty until the chunk's first weighted line
  ParseFailure failure;
};

// Parses the edges of data[begin, end) into sources[0..] and targets[0..] of this chunk.
// Wide (relabel) ids are kept as read; narrow ids are shifted for one_based and range-checked.
template <typename Id>
void parse_chunk(std::string_view data, std::size_t begin, std::size_t end_offset, bool one_based,
                 Id* sources, Id* targets, ChunkResult<Id>& result) {
  constexpr bool kWide = sizeof(Id) == sizeof(std::uint64_t) && sizeof(NodeID) < sizeof(Id);
  const char* const base = data.data();
  const char* p = base + begin;
  const char* const end = base + end_offset;
  std::size_t count = 0;
  std::uint64_t max_id = 0;
  grammar::EdgeLine line;
  while (p != end) {
    grammar::LineKind kind = grammar::parse_edge_line(p, end, line);
    if (kind == grammar::LineKind::kSkip)
      continue;
    if constexpr (!kWide)
      if (kind == grammar::LineKind::kEdge)
        kind = grammar::check_edge_ids(line, one_based, end);
    if (kind == grammar::LineKind::kError) [[unlikely]] {
      result.failure.set(static_cast<std::size_t>(line.error_at - base), std::move(line.error));
      break;
    }
    if (line.weighted) {
      if (result.weights.empty())
        result.weights.assign(count, 1);
      result.weights.push_back(line.weight);
    } else if (!result.weights.empty()) {
      result.weights.push_back(1);
    }
    sources[count] = static_cast<Id>(line.u);
    targets[count] = static_cast<Id>(line.v);
    ++count;
    max_id = std::max({max_id, line.u, line.v});
  }
  result.count = count;
  result.max_id = max_id;
  result.any = count > 0;
}

// Parses all chunks in parallel; ids land in file order in sources/targets.
template <typename Id>
std::vector<ChunkResult<Id>> parse_edges(const InputBuffer& in, std::size_t begin, bool one_based,
                                         std::vector<Id>& sources, std::vector<Id>& targets) {
  const std::string_view data = in.data();
  const std::vector<std::size_t> bounds = split_at_newlines(data, begin);
  const std::size_t chunks = bounds.size() - 1;
  // Every line holds at most one edge: line counts give each chunk its slot range. Exact
  // counts (a chunk ends just after a newline, only the last one may not) leave no gaps unless
  // there are comment or blank lines, so the arrays are not moved again below.
  std::vector<std::size_t> slots(chunks + 1, 0);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    const bool open_end = bounds[c + 1] > bounds[c] && data[bounds[c + 1] - 1] != '\n';
    slots[c + 1] = count_newlines(data, bounds[c], bounds[c + 1]) + (open_end ? 1 : 0);
  });
  for (std::size_t c = 0; c < chunks; ++c)
    slots[c + 1] += slots[c];
  sources.resize(slots[chunks]);
  targets.resize(slots[chunks]);
  std::vector<ChunkResult<Id>> results(chunks);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    parse_chunk<Id>(data, bounds[c], bounds[c + 1], one_based, sources.data() + slots[c],
                    targets.data() + slots[c], results[c]);
  });
  std::vector<ParseFailure> failures(chunks);
  for (std::size_t c = 0; c < chunks; ++c)
    failures[c] = std::move(results[c].failure);
  failures.push_back(first_long_line(data, {0, begin})); // the header lines
  failures.push_back(first_long_line(data, bounds));
  throw_earliest(in.path(), data, failures);
  // Close the gaps left by comment and blank lines (each chunk moves left, in order).
  std::size_t filled = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t count = results[c].count;
    if (filled != slots[c] && count > 0) {
      std::memmove(sources.data() + filled, sources.data() + slots[c], count * sizeof(Id));
      std::memmove(targets.data() + filled, targets.data() + slots[c], count * sizeof(Id));
    }
    filled += count;
  }
  sources.resize(filled);
  targets.resize(filled);
  sources.shrink_to_fit();
  targets.shrink_to_fit();
  return results;
}

template <typename Id> std::vector<Weight> gather_weights(std::vector<ChunkResult<Id>>& results) {
  const bool weighted = std::any_of(results.begin(), results.end(),
                                    [](const ChunkResult<Id>& r) { return !r.weights.empty(); });
  if (!weighted)
    return {};
  std::vector<std::size_t> first(results.size() + 1, 0);
  for (std::size_t c = 0; c < results.size(); ++c)
    first[c + 1] = first[c] + results[c].count;
  std::vector<Weight> weights(first.back());
  tbb::parallel_for(std::size_t{0}, results.size(), [&](std::size_t c) {
    if (results[c].weights.empty())
      std::fill(weights.begin() + first[c], weights.begin() + first[c + 1], Weight{1});
    else
      std::copy(results[c].weights.begin(), results[c].weights.end(), weights.begin() + first[c]);
  });
  return weights;
}

void write_label_map(const std::vector<std::uint64_t>& labels, const std::string& path) {
  OutputFile out(path);
  write_parallel_blocks(out, labels.size(), 1 << 16,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (std::uint64_t i = begin; i < end; ++i) {
                            append_number(text, i);
                            text.push_back(' ');
                            append_number(text, labels[i]);
                            text.push_back('\n');
                          }
                        });
  out.commit();
}

EdgeListData read_relabelled(const InputBuffer& in, const Header& header,
                             const ReadOptions& options) {
  std::vector<std::uint64_t> sources, targets;
  auto results = parse_edges<std::uint64_t>(in, header.data_begin, false, sources, targets);
  EdgeListData out;
  out.edges.weights = gather_weights(results);
  // Distinct labels in increasing order; new id = rank.
  std::vector<std::uint64_t> labels(sources.size() + targets.size());
  std::copy(sources.begin(), sources.end(), labels.begin());
  std::copy(targets.begin(), targets.end(), labels.begin() + sources.size());
  tbb::parallel_sort(labels.begin(), labels.end());
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  labels.shrink_to_fit();
  if (labels.size() > kMaxNodeID + 1)
    throw InputError(in.path(), 0,
                     std::to_string(labels.size()) +
                         " distinct vertex labels exceed the id range; " + kWideIdHint);
  const std::size_t m = sources.size();
  out.edges.sources.resize(m);
  out.edges.targets.resize(m);
  auto rank = [&](std::uint64_t label) {
    return static_cast<NodeID>(std::lower_bound(labels.begin(), labels.end(), label) -
                               labels.begin());
  };
  tbb::parallel_for(std::size_t{0}, m, [&](std::size_t i) {
    out.edges.sources[i] = rank(sources[i]);
    out.edges.targets[i] = rank(targets[i]);
  });
  out.edges.n = static_cast<NodeID>(labels.size());
  if (!options.label_map_path.empty())
    write_label_map(labels, options.label_map_path);
  out.labels = std::move(labels);
  return out;
}

EdgeListData read_plain(const InputBuffer& in, const Header& header, const ReadOptions& options) {
  EdgeListData out;
  auto results = parse_edges<NodeID>(in, header.data_begin, options.one_based, out.edges.sources,
                                     out.edges.targets);
  out.edges.weights = gather_weights(results);
  std::uint64_t n = 0;
  for (const auto& r : results)
    if (r.any)
      n = std::max(n, r.max_id + 1);
  std::uint64_t declared = header.vertices;
  if (declared > kMaxNodeID + 1)
    throw InputError(in.path(), 0, grammar::too_many_vertices_message(declared));
  out.edges.n = static_cast<NodeID>(std::max(n, declared));
  return out;
}

} // namespace

EdgeListData read_edge_list(const std::string& path, const ReadOptions& options) {
  return parse_whole_file(path, options.threads, [&](const InputBuffer& in) {
    const Header header = scan_header(in.data(), in.path());
    EdgeListData out =
        options.relabel ? read_relabelled(in, header, options) : read_plain(in, header, options);
    if (out.edges.n == 0)
      throw InputError(path, 0, grammar::kNoEdgesMessage);
    out.lines = count_lines(in.data());
    return out;
  });
}

namespace detail {

std::size_t edge_list_data_begin(std::string_view data, std::string_view path,
                                 std::uint64_t& declared_vertices) {
  const Header header = scan_header(data, path);
  declared_vertices = header.vertices;
  return header.data_begin;
}

EdgeRange parse_edge_list_range(std::string_view data, std::size_t begin, std::size_t end,
                                bool one_based) {
  EdgeRange out;
  const std::size_t slots = count_newlines(data, begin, end) + 1;
  out.sources.resize(slots);
  out.targets.resize(slots);
  ChunkResult<NodeID> result;
  parse_chunk<NodeID>(data, begin, end, one_based, out.sources.data(), out.targets.data(), result);
  out.sources.resize(result.count);
  out.targets.resize(result.count);
  out.weights = std::move(result.weights);
  out.max_id = result.max_id;
  out.any = result.any;
  out.failure = std::move(result.failure);
  return out;
}

} // namespace detail

} // namespace gnnpart::io
