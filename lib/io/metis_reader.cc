// METIS graph files: header "n m [fmt [ncon]]", then one line per vertex:
// [size] [w_1 .. w_ncon] (neighbour [edge weight])*, 1-based, '%' comment lines.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/random.h"
#include "io/edge_list_grammar.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/metis_grammar.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"

namespace gnnpart::io {

namespace {

using namespace detail;

using grammar::MetisFormat;

struct Chunk {
  std::vector<EdgeID> degrees; // one per row < n
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  std::vector<Weight> vertex_weights;
  ParseFailure failure;
};

void parse_rows(std::string_view data, std::size_t begin, std::size_t end, std::uint64_t row,
                const MetisFormat& f, Chunk& chunk) {
  grammar::RowError error;
  for_each_line(data, begin, end, [&](const char* p, const char* e) {
    if (!grammar::is_metis_row(p, e))
      return true;
    const std::uint64_t u = row++;
    if (u >= f.n) {
      if (skip_blanks(p, e) == e)
        return true; // trailing blank lines
      chunk.failure.set(static_cast<std::size_t>(p - data.data()),
                        grammar::extra_rows_message(f.n));
      return false;
    }
    EdgeID degree = 0;
    const bool ok = grammar::parse_metis_row(
        p, e, u, f, error, [&](Weight w) { chunk.vertex_weights.push_back(w); },
        [&](NodeID v, Weight w) {
          chunk.adjacency.push_back(v);
          if (f.edge_weights)
            chunk.edge_weights.push_back(w);
          ++degree;
        });
    if (!ok) {
      chunk.failure.set(static_cast<std::size_t>(error.at - data.data()), std::move(error.message));
      return false;
    }
    chunk.degrees.push_back(degree);
    return true;
  });
}

// Sorts every neighbour list (weights alongside) in parallel.
void sort_lists(std::vector<EdgeID>& offsets, std::vector<NodeID>& adjacency,
                std::vector<Weight>& weights) {
  const std::size_t n = offsets.size() - 1;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n), [&](const auto& r) {
    std::vector<std::pair<NodeID, Weight>> list;
    for (std::size_t u = r.begin(); u != r.end(); ++u) {
      const EdgeID b = offsets[u], e = offsets[u + 1];
      if (std::is_sorted(adjacency.begin() + b, adjacency.begin() + e))
        continue;
      if (weights.empty()) {
        std::sort(adjacency.begin() + b, adjacency.begin() + e);
        continue;
      }
      list.clear();
      for (EdgeID i = b; i < e; ++i)
        list.emplace_back(adjacency[i], weights[i]);
      std::sort(list.begin(), list.end());
      for (EdgeID i = b; i < e; ++i)
        std::tie(adjacency[i], weights[i]) = list[i - b];
    }
  });
}

// First vertex whose list repeats a neighbour, or n.
std::size_t first_duplicate(const std::vector<EdgeID>& offsets,
                            const std::vector<NodeID>& adjacency) {
  const std::size_t n = offsets.size() - 1;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), n,
      [&](const auto& r, std::size_t found) {
        for (std::size_t u = r.begin(); u != r.end() && u < found; ++u)
          for (EdgeID e = offsets[u] + 1; e < offsets[u + 1]; ++e)
            if (adjacency[e] == adjacency[e - 1])
              return u;
        return found;
      },
      [](std::size_t a, std::size_t b) { return std::min(a, b); });
}

struct Asymmetry {
  std::size_t u;
  NodeID v = 0;
  bool weight_differs = false;
};

// First vertex u with a neighbour v that does not list u back (with the same weight).
Asymmetry first_asymmetry(const std::vector<EdgeID>& offsets, const std::vector<NodeID>& adjacency,
                          const std::vector<Weight>& weights) {
  const std::size_t n = offsets.size() - 1;
  auto check = [&](std::size_t u, Asymmetry& out) {
    for (EdgeID e = offsets[u]; e < offsets[u + 1]; ++e) {
      const NodeID v = adjacency[e];
      const auto first = adjacency.begin() + offsets[v], last = adjacency.begin() + offsets[v + 1];
      const auto it = std::lower_bound(first, last, static_cast<NodeID>(u));
      if (it == last || *it != u) {
        out = {u, v, false};
        return true;
      }
      if (!weights.empty() && weights[it - adjacency.begin()] != weights[e]) {
        out = {u, v, true};
        return true;
      }
    }
    return false;
  };
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), Asymmetry{n},
      [&](const auto& r, Asymmetry found) {
        for (std::size_t u = r.begin(); u != r.end() && u < found.u; ++u) {
          Asymmetry here{n};
          if (check(u, here))
            return here;
        }
        return found;
      },
      [](const Asymmetry& a, const Asymmetry& b) { return a.u <= b.u ? a : b; });
}

// Symmetry through sums of entry hashes (grammar::entry_hash); only a mismatch pays for the
// exact search that names the vertex.
bool multiset_symmetric(const std::vector<EdgeID>& offsets, const std::vector<NodeID>& adjacency,
                        const std::vector<Weight>& weights) {
  struct Sums {
    std::uint64_t forward = 0, backward = 0;
  };
  const std::size_t n = offsets.size() - 1;
  const Sums sums = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), Sums{},
      [&](const tbb::blocked_range<std::size_t>& r, Sums acc) {
        for (std::size_t u = r.begin(); u != r.end(); ++u)
          for (EdgeID e = offsets[u]; e < offsets[u + 1]; ++e) {
            const Weight w = weights.empty() ? 1 : weights[e];
            const NodeID v = adjacency[e];
            acc.forward += grammar::entry_hash(static_cast<NodeID>(u), v, w);
            acc.backward += grammar::entry_hash(v, static_cast<NodeID>(u), w);
          }
        return acc;
      },
      [](Sums a, const Sums& b) {
        return Sums{a.forward + b.forward, a.backward + b.backward};
      });
  return sums.forward == sums.backward;
}

CsrGraph parse_metis(const InputBuffer& in) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const HeaderLine header = find_header_line(data, 0);
  if (header.begin == kNoOffset)
    throw InputError(file, 0, grammar::kNoMetisHeaderMessage);
  const std::uint64_t header_line = line_number_at(data, header.begin);
  const MetisFormat f = grammar::parse_metis_header(file, header_line, data.data() + header.begin,
                                                    data.data() + header.end);

  const RowIndex rows = index_rows(data, header.next, false);
  // The text leaves memory as it is parsed (each chunk's pages once its rows are arrays), so
  // that the file and the graph are not resident together (cnr-2000: reading alone peaked at
  // 3.05x the column-net model's pin array).
  in.drop_pages(0, data.size());
  const std::size_t chunks = rows.chunks();
  std::vector<Chunk> parsed(chunks);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    // Upper bounds (every entry takes at least two bytes), so the vectors never regrow; pages
    // reserved but not written cost nothing.
    Chunk& chunk = parsed[c];
    const std::size_t chunk_rows = rows.first_row[c + 1] - rows.first_row[c];
    const std::size_t max_entries = (rows.bounds[c + 1] - rows.bounds[c]) / 2 + 1;
    chunk.degrees.reserve(chunk_rows);
    chunk.adjacency.reserve(max_entries);
    if (f.edge_weights)
      chunk.edge_weights.reserve(max_entries);
    if (f.vertex_weights)
      chunk.vertex_weights.reserve(chunk_rows * f.ncon);
    parse_rows(data, rows.bounds[c], rows.bounds[c + 1], rows.first_row[c], f, chunk);
    in.drop_pages(rows.bounds[c], rows.bounds[c + 1]);
  });
  std::vector<ParseFailure> failures(chunks);
  for (std::size_t c = 0; c < chunks; ++c)
    failures[c] = std::move(parsed[c].failure);
  failures.push_back(rows.long_line);
  throw_earliest(file, data, failures);
  if (rows.rows() < f.n)
    throw InputError(file, count_lines(data), grammar::too_few_rows_message(f.n, rows.rows()));

  // Assemble the CSR arrays in row order.
  const std::size_t n = f.n;
  std::vector<EdgeID> offsets(n + 1, 0);
  std::vector<std::size_t> adj_first(chunks + 1, 0), row_first(chunks + 1, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    adj_first[c + 1] = adj_first[c] + parsed[c].adjacency.size();
    row_first[c + 1] = row_first[c] + parsed[c].degrees.size();
  }
  const EdgeID entries = adj_first[chunks];
  if (entries != 2 * f.m)
    throw InputError(file, header_line, grammar::edge_count_message(f.m, entries));
  // Appended chunk by chunk into reserved (untouched) arrays, each chunk freed once copied: the
  // parsed chunks and the CSR arrays are never resident together (cnr-2000: the peak RSS of
  // reading was 3.77x the adjacency array).
  // Each chunk lands at its own place, in parallel: its rows' offsets start at its first entry.
  const std::size_t ncon = f.vertex_weights ? f.ncon : 0;
  std::vector<NodeID> adjacency(entries);
  std::vector<Weight> edge_weights(f.edge_weights ? entries : 0);
  std::vector<Weight> vertex_weights(n * ncon);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    Chunk& chunk = parsed[c];
    std::copy(chunk.adjacency.begin(), chunk.adjacency.end(), adjacency.begin() + adj_first[c]);
    std::copy(chunk.edge_weights.begin(), chunk.edge_weights.end(),
              edge_weights.begin() + (f.edge_weights ? adj_first[c] : 0));
    std::copy(chunk.vertex_weights.begin(), chunk.vertex_weights.end(),
              vertex_weights.begin() + row_first[c] * ncon);
    EdgeID offset = adj_first[c];
    for (std::size_t i = 0; i < chunk.degrees.size(); ++i)
      offsets[row_first[c] + i + 1] = offset += chunk.degrees[i];
    chunk = Chunk{};
  });
  parsed.clear();

  sort_lists(offsets, adjacency, edge_weights);
  auto line_of_vertex = [&](std::size_t u) {
    return line_number_at(data, row_offset(data, rows, u));
  };
  if (const std::size_t u = first_duplicate(offsets, adjacency); u < n)
    throw InputError(file, line_of_vertex(u), grammar::duplicate_neighbour_message(u));
  if (!multiset_symmetric(offsets, adjacency, edge_weights))
    if (const Asymmetry a = first_asymmetry(offsets, adjacency, edge_weights); a.u < n)
      throw InputError(file, line_of_vertex(a.u),
                       grammar::asymmetry_message(a.u, a.v, a.weight_differs));
  return CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights), f.ncon,
                  std::move(vertex_weights));
}

} // namespace

CsrGraph read_metis(const std::string& path, const ReadOptions& options) {
  return with_threads(options.threads, [&] {
    const InputBuffer in(path);
    if (in.empty())
      throw InputError(path, 0, grammar::kEmptyInputMessage);
    return parse_metis(in);
  });
}

namespace detail {

MetisHeader read_metis_header(const std::string& path, std::string_view data) {
  const HeaderLine header = find_header_line(data, 0);
  if (header.begin == kNoOffset)
    throw InputError(path, 0, grammar::kNoMetisHeaderMessage);
  const std::uint64_t line = line_number_at(data, header.begin);
  const MetisFormat f =
      grammar::parse_metis_header(path, line, data.data() + header.begin, data.data() + header.end);
  MetisHeader out;
  out.n = f.n;
  out.m = f.m;
  out.vertex_sizes = f.vertex_sizes;
  out.vertex_weights = f.vertex_weights;
  out.edge_weights = f.edge_weights;
  out.ncon = f.ncon;
  out.rows_begin = header.next;
  out.line = line;
  return out;
}

MetisRange parse_metis_range(std::string_view data, std::size_t begin, std::size_t end,
                             std::uint64_t first_row, const MetisHeader& header) {
  const MetisFormat f{
      header.n,   header.m, header.vertex_sizes, header.vertex_weights, header.edge_weights,
      header.ncon};
  Chunk chunk;
  parse_rows(data, begin, end, first_row, f, chunk);
  return MetisRange{std::move(chunk.degrees), std::move(chunk.adjacency),
                    std::move(chunk.edge_weights), std::move(chunk.vertex_weights),
                    std::move(chunk.failure)};
}

} // namespace detail

} // namespace gnnpart::io
