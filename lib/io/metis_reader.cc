// METIS graph files: header "n m [fmt [ncon]]", then one line per vertex:
// [size] [w_1 .. w_ncon] (neighbour [edge weight])*, 1-based, '%' comment lines.
#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include "core/errors.h"
#include "core/random.h"
#include "core/released_copy.h"
#include "io/edge_list_grammar.h"
#include "io/graph_io.h"
#include "io/huge_pages.h"
#include "io/input_buffer.h"
#include "io/metis_grammar.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"
#include "io/whole_file.h"

namespace gnnpart::io {

namespace {

using namespace detail;

using grammar::MetisFormat;

template <template <typename> class Alloc> struct BasicChunk {
  std::vector<EdgeID, Alloc<EdgeID>> degrees; // one per row < n
  std::vector<NodeID, Alloc<NodeID>> adjacency;
  std::vector<Weight, Alloc<Weight>> edge_weights;
  std::vector<Weight, Alloc<Weight>> vertex_weights;
  ParseFailure failure;
};
using Chunk = BasicChunk<std::allocator>;
// The second part of a 2-thread read: freed once copied, so mapped apart from malloc.
using MappedChunk = BasicChunk<MappedAllocator>;

// The rows of [begin, end), with the edge-weight flag fixed for all of them (kEdgeWeights ==
// f.edge_weights): the number loop neither tests it per entry nor keeps it in a stack slot
// (cnr-2000, `info -t 1`: 853.3M -> 815.3M instructions, with parse_unsigned always inlined).
template <bool kEdgeWeights, typename Rows>
void parse_rows_as(std::string_view data, std::size_t begin, std::size_t end, std::uint64_t row,
                   const MetisFormat& f, Rows& chunk) {
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
    const std::size_t first = chunk.adjacency.size();
    const bool ok = grammar::parse_metis_row_as<kEdgeWeights>(
        p, e, u, f, error, [&](Weight w) { chunk.vertex_weights.push_back(w); },
        [&chunk](NodeID v, Weight w) {
          chunk.adjacency.push_back(v);
          if constexpr (kEdgeWeights)
            chunk.edge_weights.push_back(w);
        });
    if (!ok) {
      chunk.failure.set(static_cast<std::size_t>(error.at - data.data()), std::move(error.message));
      return false;
    }
    chunk.degrees.push_back(static_cast<EdgeID>(chunk.adjacency.size() - first));
    return true;
  });
}

template <typename Rows>
void parse_rows(std::string_view data, std::size_t begin, std::size_t end, std::uint64_t row,
                const MetisFormat& f, Rows& chunk) {
  if (f.edge_weights)
    parse_rows_as<true>(data, begin, end, row, f, chunk);
  else
    parse_rows_as<false>(data, begin, end, row, f, chunk);
}

// One parallel pass over the rows after parsing (it was three: sorting, duplicates, symmetry
// sums): sorts every neighbour list (weights alongside), finds the first vertex whose list
// repeats a neighbour, and sums one hash per entry. An entry (u, v, w) is hashed as the pair
// with the smaller id first, entry_hash(min, max, w), into `upward` when u < v and into
// `downward` when u > v (no self loops pass the grammar). The adjacency is symmetric exactly
// when the entries going up and those coming down are the same multiset, so the two sums agree
// on every symmetric file; a mismatch, or an asymmetric file whose sums agree (a 64-bit hash
// collision), is what they can miss. Only a mismatch pays for the exact search
// (first_asymmetry) that names the vertex. Hashing each entry once (the sums of
// entry_hash(u, v, w) and of entry_hash(v, u, w) hashed it twice) halves the hashing; a sorted
// list holds its downward entries (v < u) before its upward ones, so each part is a plain loop.
struct ListCheck {
  std::size_t first_duplicate; // n when no list repeats a neighbour
  std::uint64_t upward = 0, downward = 0;
};

ListCheck sort_and_check_lists(const std::vector<EdgeID>& offsets, std::vector<NodeID>& adjacency,
                               std::vector<Weight>& weights) {
  const std::size_t n = offsets.size() - 1;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), ListCheck{n},
      [&](const tbb::blocked_range<std::size_t>& r, ListCheck acc) {
        std::vector<std::pair<NodeID, Weight>> list;
        for (std::size_t u = r.begin(); u != r.end(); ++u) {
          const auto first = adjacency.begin() + static_cast<std::ptrdiff_t>(offsets[u]);
          const auto last = adjacency.begin() + static_cast<std::ptrdiff_t>(offsets[u + 1]);
          const auto own = static_cast<NodeID>(u);
          const EdgeID b = offsets[u], e = offsets[u + 1];
          // One scan without an early exit or a binary search (both branch on the data): the
          // list is strictly increasing (sorted, no repeat: the common case), and how many of
          // its entries lie below u (where the upward ones start once it is sorted).
          bool increasing = true;
          EdgeID below = 0;
          for (EdgeID i = b; i < e; ++i) {
            below += adjacency[i] < own;
            if (i > b)
              increasing &= adjacency[i - 1] < adjacency[i];
          }
          if (!increasing) {
            if (!std::is_sorted(first, last)) {
              if (weights.empty()) {
                std::sort(first, last);
              } else {
                list.clear();
                for (EdgeID i = b; i < e; ++i)
                  list.emplace_back(adjacency[i], weights[i]);
                std::sort(list.begin(), list.end());
                for (EdgeID i = b; i < e; ++i)
                  std::tie(adjacency[i], weights[i]) = list[i - b];
              }
            }
            if (u < acc.first_duplicate && std::adjacent_find(first, last) != last)
              acc.first_duplicate = u;
          }
          const EdgeID mid = b + below;
          std::uint64_t upward = 0, downward = 0;
          if (weights.empty()) {
            for (EdgeID i = b; i < mid; ++i)
              downward += grammar::entry_hash(adjacency[i], own, 1);
            for (EdgeID i = mid; i < e; ++i)
              upward += grammar::entry_hash(own, adjacency[i], 1);
          } else {
            for (EdgeID i = b; i < mid; ++i)
              downward += grammar::entry_hash(adjacency[i], own, weights[i]);
            for (EdgeID i = mid; i < e; ++i)
              upward += grammar::entry_hash(own, adjacency[i], weights[i]);
          }
          acc.upward += upward;
          acc.downward += downward;
        }
        return acc;
      },
      [](ListCheck a, const ListCheck& b) {
        return ListCheck{std::min(a.first_duplicate, b.first_duplicate), a.upward + b.upward,
                         a.downward + b.downward};
      });
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

// The rows as CSR arrays (offsets, adjacency, edge and vertex weights), unchecked beyond the
// grammar and the counts.
struct ParsedRows {
  std::vector<EdgeID> offsets;
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  std::vector<Weight> vertex_weights;
};

// Several threads: the text is cut into chunks of rows (one pass to count the rows of each),
// the chunks are parsed in parallel into arrays of their own, then copied into place.
ParsedRows parse_rows_in_parallel(const InputBuffer& in, const MetisFormat& f,
                                  std::uint64_t header_line, std::size_t rows_begin) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const RowIndex rows = index_rows(data, rows_begin, false);
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
  std::vector<EdgeID> offsets = zeros_on_huge_pages<EdgeID>(n + 1);
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
  std::vector<NodeID> adjacency = zeros_on_huge_pages<NodeID>(entries);
  std::vector<Weight> edge_weights = zeros_on_huge_pages<Weight>(f.edge_weights ? entries : 0);
  std::vector<Weight> vertex_weights = zeros_on_huge_pages<Weight>(n * ncon);
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
  return {std::move(offsets), std::move(adjacency), std::move(edge_weights),
          std::move(vertex_weights)};
}

// The rows of data[begin, end) parsed in file order into `rows`, the first of them row
// `first_row`, chunk by chunk along `bounds` (each chunk's text dropped once parsed, so the text
// leaves memory as it is read); stops at the first failure. rows.degrees gets one entry a row
// after the `rows.degrees.size()` it had.
template <typename Rows>
void parse_part(const InputBuffer& in, const std::vector<std::size_t>& bounds, std::size_t begin,
                std::size_t end, std::uint64_t first_row, const MetisFormat& f, Rows& rows) {
  const std::size_t before = rows.degrees.size();
  for (std::size_t c = 0; c + 1 < bounds.size() && !rows.failure.failed(); ++c) {
    const std::size_t lo = std::max(bounds[c], begin), hi = std::min(bounds[c + 1], end);
    if (lo >= hi)
      continue;
    parse_rows(in.data(), lo, hi, first_row + (rows.degrees.size() - before), f, rows);
    in.drop_pages(lo, hi);
  }
}

// Reserves room for the rows of `text` bytes: from the header's m and n, each bounded by what
// the text can hold, so a wrong header costs no memory; pages reserved but not written cost
// nothing. Huge pages for the arrays written front to back (cnr-2000, `info -t 1`: 8355 page
// faults -> 3755, system time 23.3 ms -> 16.3 ms).
template <typename Rows> void reserve_rows(Rows& rows, std::uint64_t text, const MetisFormat& f) {
  const std::uint64_t max_entries = std::min<std::uint64_t>(2 * f.m, text / 2 + 1);
  rows.degrees.reserve(std::min<std::uint64_t>(f.n, text + 1) + 1);
  rows.adjacency.reserve(max_entries);
  if (f.edge_weights)
    rows.edge_weights.reserve(max_entries);
  if (f.vertex_weights)
    rows.vertex_weights.reserve(std::min<std::uint64_t>(f.n * f.ncon, text / 2 + 1));
  advise_huge_pages(rows.adjacency);
  advise_huge_pages(rows.edge_weights);
  advise_huge_pages(rows.degrees);
}

// Rows (lines that are not '%' comments) of data[begin, end), where end is a line start. A
// newline count when the range holds no '%' at all (every bench graph), else line by line.
std::uint64_t count_rows(std::string_view data, std::size_t begin, std::size_t end) {
  if (std::memchr(data.data() + begin, '%', end - begin) == nullptr)
    return count_newlines(data, begin, end);
  std::uint64_t rows = 0;
  for_each_line(data, begin, end, [&](const char* p, const char* e) {
    rows += grammar::is_metis_row(p, e);
    return true;
  });
  return rows;
}

// Share of the rows' text that the first of two threads parses. The second one first counts
// the first part's rows (its own rows' ids follow them), a pass of c = 0.076 of the parse's cost
// (count_newlines reads 8 bytes a step; cnr-2000, thread CPU time: 2.1 ms against 27.5 ms), so
// both finish together when the first part is 1 / (2 - c) = 0.52 of the text.
constexpr double kFirstPartShare = 0.52;

// The rows in file order into the CSR arrays' own vectors: with neither the pass that counts the
// rows of each chunk nor the copy of the parallel path (cnr-2000, `gnnpart info -t 1`: 0.757x its
// CPU time, 42792 KB peak RSS instead of 54384). With `two_parts`, a second thread parses the
// rows from about the middle of the text on (after counting the rows before it) into arrays of
// its own, appended at the end: the same arrays, the same first failure (the earlier one wins).
// Thread CPU times on cnr-2000: 27.5 ms in one part; 15.6 ms and 14.0 ms in two, then 1.6 ms
// to append (docs/scaling.md, session 19).
ParsedRows parse_rows_in_order(const InputBuffer& in, const MetisFormat& f,
                               std::uint64_t header_line, std::size_t rows_begin, bool two_parts) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const std::vector<std::size_t> bounds = split_at_newlines(data, rows_begin);
  ParseFailure long_line = first_long_line(data, {0, rows_begin}); // the header lines
  if (!long_line.failed())
    long_line = first_long_line(data, bounds);
  const std::uint64_t text = data.size() - rows_begin;
  // The second part starts at a line start; none (split == data.size()) on a one-line text.
  std::size_t split = data.size();
  if (two_parts) {
    const auto middle =
        rows_begin + static_cast<std::size_t>(kFirstPartShare * static_cast<double>(text));
    split = static_cast<std::size_t>(skip_line(data.data() + middle, data.data() + data.size()) -
                                     data.data());
  }
  // rows.degrees starts with a 0 and becomes the offsets in place once every row is read (no
  // second array of n + 1 entries).
  Chunk rows;
  MappedChunk second;
  reserve_rows(rows, text, f); // the second part's rows are appended to these
  rows.degrees.push_back(0);
  if (split < data.size()) {
    reserve_rows(second, data.size() - split, f);
    tbb::parallel_invoke([&] { parse_part(in, bounds, rows_begin, split, 0, f, rows); },
                         [&] {
                           const std::uint64_t first_row = count_rows(data, rows_begin, split);
                           parse_part(in, bounds, split, data.size(), first_row, f, second);
                         });
  } else {
    parse_part(in, bounds, rows_begin, data.size(), 0, f, rows);
  }
  throw_earliest(file, data,
                 {std::move(rows.failure), std::move(second.failure), std::move(long_line)});
  const std::size_t row_count = rows.degrees.size() - 1 + second.degrees.size();
  if (row_count < f.n)
    throw InputError(file, count_lines(data), grammar::too_few_rows_message(f.n, row_count));
  const std::size_t entries = rows.adjacency.size() + second.adjacency.size();
  if (entries != 2 * f.m)
    throw InputError(file, header_line, grammar::edge_count_message(f.m, entries));
  // The second part's pages go back as they are copied (core/released_copy.h): the copy held
  // the second part twice (dblp-2010, `gnnpart info` at 2 threads without transparent huge
  // pages: peak 18,664-19,876 -> 17,168-17,288 KiB; docs/hypergraph.md, "Memory", fifteenth
  // pass).
  auto append = [](auto& to, auto& from) {
    append_released(to, from.data(), from.size());
    from = {};
  };
  append(rows.degrees, second.degrees);
  append(rows.adjacency, second.adjacency);
  append(rows.edge_weights, second.edge_weights);
  append(rows.vertex_weights, second.vertex_weights);
  ParsedRows out;
  std::vector<EdgeID>& offsets = rows.degrees;
  for (std::size_t u = 1; u < offsets.size(); ++u)
    offsets[u] += offsets[u - 1];
  out.offsets = std::move(offsets);
  out.adjacency = std::move(rows.adjacency);
  out.edge_weights = std::move(rows.edge_weights);
  out.vertex_weights = std::move(rows.vertex_weights);
  return out;
}

// The rows are parsed in parallel chunks from this many threads on. The parallel path does about
// 1.32x the work of the in-order one (the row-counting pass, the chunks' own arrays and their
// copy: cnr-2000 CPU time 1 / 0.757), and its index, the zero-filled CSR arrays and the first
// touch of the chunks' pages (17.2k minor faults against 12.0k at 2 threads) run on one thread;
// so on two threads it cannot gain and reads slower (cnr-2000: 0.063 s against 0.040 s,
// docs/scaling.md). Two threads parse in two parts instead (parse_rows_in_order).
constexpr int kParallelRowsMinThreads = 3;

CsrGraph parse_metis(const InputBuffer& in) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const HeaderLine header = find_header_line(data, 0);
  if (header.begin == kNoOffset)
    throw InputError(file, 0, grammar::kNoMetisHeaderMessage);
  const std::uint64_t header_line = line_number_at(data, header.begin);
  const MetisFormat f = grammar::parse_metis_header(file, header_line, data.data() + header.begin,
                                                    data.data() + header.end);
  const int threads = tbb::this_task_arena::max_concurrency();
  ParsedRows g = threads < kParallelRowsMinThreads
                     ? parse_rows_in_order(in, f, header_line, header.next, threads >= 2)
                     : parse_rows_in_parallel(in, f, header_line, header.next);
  const std::size_t n = f.n;
  std::vector<EdgeID>& offsets = g.offsets;
  std::vector<NodeID>& adjacency = g.adjacency;
  std::vector<Weight>& edge_weights = g.edge_weights;
  // Line numbers for the errors found on the arrays (the row index is a pass over the text, so
  // only an error pays for it).
  auto line_of_vertex = [&](std::size_t u) {
    return line_number_at(data, row_offset(data, index_rows(data, header.next, false), u));
  };
  const ListCheck check = sort_and_check_lists(offsets, adjacency, edge_weights);
  if (const std::size_t u = check.first_duplicate; u < n)
    throw InputError(file, line_of_vertex(u), grammar::duplicate_neighbour_message(u));
  if (check.upward != check.downward)
    if (const Asymmetry a = first_asymmetry(offsets, adjacency, edge_weights); a.u < n)
      throw InputError(file, line_of_vertex(a.u),
                       grammar::asymmetry_message(a.u, a.v, a.weight_differs));
  return CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights), f.ncon,
                  std::move(g.vertex_weights));
}

} // namespace

CsrGraph read_metis(const std::string& path, const ReadOptions& options) {
  return parse_whole_file(path, options.threads,
                          [](const InputBuffer& in) { return parse_metis(in); });
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
