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
#include "io/input_buffer.h"
#include "io/output_file.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"

namespace gnnpart::io {

namespace {

using namespace detail;

struct Header {
  std::uint64_t vertices = 0; // 0: not given
  std::size_t data_begin = 0; // offset where parsing starts
};

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "vertices: N" or "Nodes: N ..." inside a comment line (text after the comment character).
bool parse_vertex_count(std::string_view text, std::uint64_t& count) {
  const char* p = skip_blanks(text.data(), text.data() + text.size());
  const char* end = text.data() + text.size();
  const char* word_end = p;
  while (word_end != end && std::isalpha(static_cast<unsigned char>(*word_end)))
    ++word_end;
  const std::string_view word(p, static_cast<std::size_t>(word_end - p));
  if (!equals_ignore_case(word, "vertices") && !equals_ignore_case(word, "nodes"))
    return false;
  p = skip_blanks(word_end, end);
  if (p == end || *p != ':')
    return false;
  p = skip_blanks(p + 1, end);
  return parse_unsigned(p, end, false, count) == NumberStatus::kOk;
}

bool is_csv(std::string_view path) {
  std::string_view name = path;
  if (has_gz_suffix(name))
    name.remove_suffix(3);
  return name.size() >= 4 && equals_ignore_case(name.substr(name.size() - 4), ".csv");
}

// Reads the leading comment block for a vertex count; skips a CSV column-name row.
Header scan_header(std::string_view data, std::string_view path) {
  Header header;
  const char* begin = data.data();
  const char* end = begin + data.size();
  const char* p = begin;
  bool column_names_seen = false;
  while (p != end) {
    const char* line = skip_blanks(p, end);
    if (line != end && (*line == '#' || *line == '%')) {
      const char* next = skip_line(line, end);
      std::uint64_t count = 0;
      if (parse_vertex_count(std::string_view(line + 1, static_cast<std::size_t>(next - line - 1)),
                             count))
        header.vertices = std::max(header.vertices, count);
      p = next;
      continue;
    }
    if (line != end && *line == '\n') {
      p = line + 1;
      continue;
    }
    if (line != end && !column_names_seen && std::isalpha(static_cast<unsigned char>(*line)) &&
        is_csv(path)) {
      column_names_seen = true; // "source,target" column names
      p = skip_line(line, end);
      continue;
    }
    p = line;
    break;
  }
  header.data_begin = static_cast<std::size_t>(p - begin);
  return header;
}

[[gnu::cold, gnu::noinline]] std::string one_based_zero_message() {
  return "vertex id 0 in a 1-based edge list";
}

[[gnu::cold, gnu::noinline]] std::string wide_id_message(const char* at, const char* end) {
  return "vertex id " + token_text(at, end, true) +
         " is past the 32-bit id range; use relabel for sparse labels, or " + kWideIdHint;
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
  auto fail = [&](const char* at, std::string message) {
    result.failure.set(static_cast<std::size_t>(at - base), std::move(message));
  };
  // Shifts one-based ids and checks the range; the message is built out of line.
  auto check_id = [&](std::uint64_t& id, const char* at) {
    if constexpr (!kWide) {
      if (one_based) {
        if (id == 0) [[unlikely]] {
          result.failure.set(static_cast<std::size_t>(at - base), one_based_zero_message());
          return false;
        }
        --id;
      }
      if (id > kMaxNodeID) [[unlikely]] {
        result.failure.set(static_cast<std::size_t>(at - base), wide_id_message(at, end));
        return false;
      }
    }
    return true;
  };
  while (p != end) {
    p = skip_blanks(p, end);
    if (p == end)
      break;
    if (*p == '\n') {
      ++p;
      continue;
    }
    if (*p == '#' || *p == '%') {
      p = skip_line(p, end);
      continue;
    }
    std::uint64_t u = 0, v = 0;
    const char* u_at = p;
    NumberStatus status = parse_unsigned(p, end, true, u);
    if (status != NumberStatus::kOk) {
      fail(u_at, number_error(status, "a source vertex id", u_at, end, true));
      break;
    }
    p = skip_separators(p, end, true);
    const char* v_at = p;
    status = parse_unsigned(p, end, true, v);
    if (status != NumberStatus::kOk) {
      fail(v_at, number_error(status, "a target vertex id", v_at, end, true));
      break;
    }
    if (!check_id(u, u_at) || !check_id(v, v_at))
      break;
    p = skip_separators(p, end, true);
    if (p != end && *p != '\n' && *p != '#' && *p != '%') {
      const char* w_at = p;
      std::int64_t w = 0;
      status = parse_signed(p, end, true, w);
      if (status != NumberStatus::kOk) {
        fail(w_at, number_error(status, "an integer edge weight", w_at, end, true));
        break;
      }
      if (w < 1) {
        fail(w_at, "edge weight must be positive, found " + token_text(w_at, end, true));
        break;
      }
      p = skip_separators(p, end, true);
      if (p != end && *p != '\n' && *p != '#' && *p != '%') {
        fail(p, "unexpected fourth column '" + token_text(p, end, true) +
                    "' (expected 'u v [weight]')");
        break;
      }
      if (result.weights.empty())
        result.weights.assign(count, 1);
      result.weights.push_back(w);
    } else if (!result.weights.empty()) {
      result.weights.push_back(1);
    }
    p = (p != end && *p == '\n') ? p + 1 : skip_line(p, end);
    sources[count] = static_cast<Id>(u);
    targets[count] = static_cast<Id>(v);
    ++count;
    max_id = std::max({max_id, u, v});
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
  // Every line holds at most one edge: newline counts give each chunk its slot range.
  std::vector<std::size_t> slots(chunks + 1, 0);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    slots[c + 1] = count_newlines(data, bounds[c], bounds[c + 1]) + 1;
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
    throw InputError(in.path(), 0,
                     "header declares " + std::to_string(declared) +
                         " vertices, past the 32-bit id range; " + kWideIdHint);
  out.edges.n = static_cast<NodeID>(std::max(n, declared));
  return out;
}

} // namespace

EdgeListData read_edge_list(const std::string& path, const ReadOptions& options) {
  return with_threads(options.threads, [&] {
    const InputBuffer in(path);
    if (in.empty())
      throw InputError(path, 0, "empty input");
    const Header header = scan_header(in.data(), in.path());
    EdgeListData out =
        options.relabel ? read_relabelled(in, header, options) : read_plain(in, header, options);
    if (out.edges.n == 0)
      throw InputError(path, 0, "empty input: no edges and no '# vertices: N' header");
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
