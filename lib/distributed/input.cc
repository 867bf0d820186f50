#include "distributed/input.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <type_traits>

#include "core/errors.h"
#include "distributed/binary_slices.h"
#include "distributed/text_slices.h"
#include "io/input_buffer.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"

namespace gnnpart::distributed {

namespace {

using io::detail::count_newlines;

// What this rank parsed: edges (edge lists: one entry per line; METIS: one per adjacency
// entry) in global ids, vertex weights of METIS rows, the first failure in file order.
struct Parsed {
  std::vector<NodeID> sources, targets;
  std::vector<Weight> weights; // empty while every edge read so far weighs 1
  std::vector<VertexWeight> vertex_weights;
  std::uint64_t max_id = 0;
  bool any = false;
  bool weighted = false;
  std::uint64_t entry_count = 0; // METIS adjacency entries as read
  std::uint64_t failure_line = 0;
  std::string failure_message;
  bool failed() const { return failure_line != 0; }
};

void record_failure(Parsed& parsed, const TextPiece& piece, const io::detail::ParseFailure& f) {
  if (!f.failed() || parsed.failed())
    return;
  parsed.failure_line = piece.first_line + count_newlines(piece.bytes, piece.begin, f.offset);
  parsed.failure_message = f.message;
}

void parse_edge_piece(const TextPiece& piece, bool one_based, Parsed& parsed) {
  if (parsed.failed())
    return; // later pieces cannot hold an earlier line
  io::detail::EdgeRange range =
      io::detail::parse_edge_list_range(piece.bytes, piece.begin, piece.end, one_based);
  record_failure(parsed, piece, range.failure);
  if (!range.weights.empty() && parsed.weights.empty())
    parsed.weights.assign(parsed.sources.size(), 1);
  if (!parsed.weights.empty()) {
    if (range.weights.empty())
      range.weights.assign(range.sources.size(), 1);
    parsed.weights.insert(parsed.weights.end(), range.weights.begin(), range.weights.end());
  }
  if (parsed.sources.empty()) {
    parsed.sources = std::move(range.sources);
    parsed.targets = std::move(range.targets);
  } else {
    parsed.sources.insert(parsed.sources.end(), range.sources.begin(), range.sources.end());
    parsed.targets.insert(parsed.targets.end(), range.targets.begin(), range.targets.end());
  }
  parsed.weighted = parsed.weighted || !range.weights.empty();
  if (range.any) {
    parsed.any = true;
    parsed.max_id = std::max(parsed.max_id, range.max_id);
  }
}

void parse_metis_piece(const TextPiece& piece, const io::detail::MetisHeader& header,
                       Parsed& parsed) {
  if (parsed.failed())
    return;
  io::detail::MetisRange range =
      io::detail::parse_metis_range(piece.bytes, piece.begin, piece.end, piece.first_row, header);
  record_failure(parsed, piece, range.failure);
  std::size_t at = 0;
  for (std::size_t row = 0; row < range.degrees.size(); ++row) {
    const NodeID u = static_cast<NodeID>(piece.first_row + row);
    for (EdgeID i = 0; i < range.degrees[row]; ++i, ++at) {
      parsed.sources.push_back(u);
      parsed.targets.push_back(range.adjacency[at]);
      if (!range.edge_weights.empty())
        parsed.weights.push_back(range.edge_weights[at]);
    }
    if (!range.vertex_weights.empty())
      parsed.vertex_weights.push_back({u, range.vertex_weights[row * header.ncon]});
  }
  parsed.entry_count += range.adjacency.size();
  parsed.weighted = parsed.weighted || !range.edge_weights.empty();
}

bool starts_with_gzip(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[2] = {0, 0};
  in.read(magic, 2);
  return in.gcount() == 2 && io::is_gzip(std::string_view(magic, 2));
}

// Throws the rank's first parse failure as gnnpart's readers would.
void throw_parsed_failure(const std::string& path, const Parsed& parsed) {
  if (parsed.failed())
    throw InputError(path, parsed.failure_line, parsed.failure_message);
}

std::vector<std::uint64_t> uniform_ranges(std::uint64_t n, int ranks) {
  std::vector<std::uint64_t> vtxdist(static_cast<std::size_t>(ranks) + 1);
  for (int r = 0; r <= ranks; ++r)
    vtxdist[static_cast<std::size_t>(r)] = n * static_cast<std::uint64_t>(r) /
                                           static_cast<std::uint64_t>(ranks);
  return vtxdist;
}

// Sends every parsed edge to the owner of its source under uniform ranges (both directions of
// an undirected edge when symmetrize) as T (Entry or Edge) and builds that graph.
template <typename T>
DistGraph build_uniform(const Comm& comm, Parsed& parsed, std::vector<std::uint64_t> vtxdist,
                        bool symmetrize, std::vector<Weight> vertex_weights) {
  const auto make = [&](NodeID u, NodeID v, std::size_t i) {
    if constexpr (std::is_same_v<T, Entry>)
      return Entry{u, v, parsed.weights.empty() ? 1 : parsed.weights[i]};
    else
      return Edge{u, v};
  };
  std::vector<T> received = route<T>(comm, [&](auto&& send) {
    for (std::size_t i = 0; i < parsed.sources.size(); ++i) {
      const NodeID u = parsed.sources[i], v = parsed.targets[i];
      send(owner_of(vtxdist, u), make(u, v, i));
      if (symmetrize)
        send(owner_of(vtxdist, v), make(v, u, i));
    }
  });
  std::vector<NodeID>().swap(parsed.sources);
  std::vector<NodeID>().swap(parsed.targets);
  std::vector<Weight>().swap(parsed.weights);
  return build_dist_graph<T>(comm, std::move(vtxdist), std::move(received),
                             std::move(vertex_weights), Merge::kMax);
}

// Routes the parsed edges under uniform ranges, then rebalances the ranges by degree.
DistGraph route(const Comm& comm, Parsed parsed, std::uint64_t n, bool symmetrize,
                bool vertex_weighted) {
  const bool weighted = sum_all(comm, std::uint64_t{parsed.weighted ? 1u : 0u}) > 0;
  if (weighted && parsed.weights.empty())
    parsed.weights.assign(parsed.sources.size(), 1);
  std::vector<std::uint64_t> vtxdist = uniform_ranges(n, comm.size);
  std::vector<Weight> vertex_weights;
  if (vertex_weighted) {
    const auto arrived = route<VertexWeight>(comm, [&](auto&& send) {
      for (const VertexWeight& vw : parsed.vertex_weights)
        send(owner_of(vtxdist, vw.u), vw);
    });
    const NodeID first = static_cast<NodeID>(vtxdist[comm.rank]);
    vertex_weights.assign(vtxdist[comm.rank + 1] - first, 0);
    for (const VertexWeight& vw : arrived)
      vertex_weights[vw.u - first] = vw.w;
  }
  DistGraph graph =
      weighted ? build_uniform<Entry>(comm, parsed, std::move(vtxdist), symmetrize,
                                      std::move(vertex_weights))
               : build_uniform<Edge>(comm, parsed, std::move(vtxdist), symmetrize,
                                     std::move(vertex_weights));
  if (comm.size == 1)
    return graph;
  return redistribute(comm, graph, degree_balanced_ranges(comm, graph));
}

DistGraph read_edge_list_text(const Comm& comm, const std::string& path, bool gzip,
                              const io::ReadOptions& options) {
  std::uint64_t declared = 0;
  TextFormat format;
  format.data_begin = [&](std::string_view head) {
    return io::detail::edge_list_data_begin(head, path, declared);
  };
  Parsed parsed;
  const TextStats stats = for_each_text_piece(
      comm, path, gzip, format,
      [&](const TextPiece& piece) { parse_edge_piece(piece, options.one_based, parsed); });
  run_phase(comm, [&] { throw_parsed_failure(path, parsed); });
  MPI_Bcast(&declared, 1, MPI_UINT64_T, 0, comm.comm);
  if (stats.lines == 0)
    run_phase(comm, [&] { throw InputError(path, 0, "empty input"); });
  const bool any = sum_all(comm, std::uint64_t{parsed.any ? 1u : 0u}) > 0;
  std::uint64_t n = any ? max_all(comm, parsed.max_id) + 1 : 0;
  run_phase(comm, [&] {
    if (declared > kMaxNodeID + 1)
      throw InputError(path, 0,
                       "header declares " + std::to_string(declared) +
                           " vertices, past the 32-bit id range; " + kWideIdHint);
  });
  n = std::max(n, declared);
  if (n == 0)
    run_phase(comm, [&] {
      throw InputError(path, 0, "empty input: no edges and no '# vertices: N' header");
    });
  return route(comm, std::move(parsed), n, true, false);
}

void broadcast_header(const Comm& comm, io::detail::MetisHeader& header) {
  std::uint64_t fields[8] = {header.n, header.m, header.vertex_sizes, header.vertex_weights,
                             header.edge_weights, static_cast<std::uint64_t>(header.ncon),
                             header.rows_begin, header.line};
  MPI_Bcast(fields, 8, MPI_UINT64_T, 0, comm.comm);
  header = {fields[0], fields[1], fields[2] != 0, fields[3] != 0, fields[4] != 0,
            static_cast<int>(fields[5]), fields[6], fields[7]};
}

DistGraph read_metis_text(const Comm& comm, const std::string& path, bool gzip) {
  io::detail::MetisHeader header;
  TextFormat format;
  format.count_rows = true;
  format.data_begin = [&](std::string_view head) {
    header = io::detail::read_metis_header(path, head);
    if (header.ncon > 1)
      throw Unsupported(path + ": gnnpart-mpi balances one constraint; this METIS file has ncon = " +
                        std::to_string(header.ncon));
    return header.rows_begin;
  };
  // The header is needed before any piece is parsed: rank 0 reads it first.
  if (!gzip) {
    run_phase(comm, [&] {
      if (comm.rank == 0) {
        std::string head;
        std::ifstream in(path, std::ios::binary);
        head.resize(std::size_t{4} << 20);
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        if (head.empty())
          throw InputError(path, 0, "empty input");
        format.data_begin(std::string_view(head).substr(check_text_head(path, head)));
      }
    });
    broadcast_header(comm, header);
    format.data_begin = [&](std::string_view) { return header.rows_begin; };
  }
  Parsed parsed;
  std::vector<TextPiece> held; // gzip: pieces arrive before rank 0 broadcast the header
  const TextStats stats = for_each_text_piece(comm, path, gzip, format, [&](const TextPiece& p) {
    if (gzip)
      held.push_back(p);
    else
      parse_metis_piece(p, header, parsed);
  });
  if (gzip) {
    broadcast_header(comm, header);
    for (const TextPiece& p : held)
      parse_metis_piece(p, header, parsed);
    held.clear();
  }
  run_phase(comm, [&] { throw_parsed_failure(path, parsed); });
  const std::uint64_t entries = sum_all(comm, parsed.entry_count);
  run_phase(comm, [&] {
    if (stats.rows < header.n)
      throw InputError(path, stats.lines,
                       "header declares n = " + std::to_string(header.n) +
                           " vertices but the file has " + std::to_string(stats.rows) +
                           " vertex lines");
    if (entries != 2 * header.m)
      throw InputError(path, header.line,
                       "header declares m = " + std::to_string(header.m) +
                           " edges but the adjacency lists hold " + std::to_string(entries) +
                           " entries (expected 2m = " + std::to_string(2 * header.m) + ")");
  });
  return route(comm, std::move(parsed), header.n, false, header.vertex_weights);
}

} // namespace

std::vector<std::uint64_t> degree_balanced_ranges(const Comm& comm, const DistGraph& graph) {
  const std::uint64_t local = graph.local_entries() + graph.n_local;
  const std::uint64_t before = exclusive_prefix_sum(comm, local);
  const std::uint64_t total = sum_all(comm, local);
  const std::uint64_t p = static_cast<std::uint64_t>(comm.size);
  // vtxdist[r] = first vertex whose weight prefix reaches r * total / P (min over ranks).
  std::vector<std::uint64_t> vtxdist(p + 1, graph.global_n);
  std::uint64_t prefix = before;
  std::uint64_t r = 0;
  for (NodeID u = 0; u < graph.n_local; ++u) {
    while (r < p && static_cast<unsigned __int128>(prefix) * p >=
                        static_cast<unsigned __int128>(r) * total) {
      vtxdist[r] = std::min<std::uint64_t>(vtxdist[r], graph.first() + u);
      ++r;
    }
    prefix += graph.offsets[u + 1] - graph.offsets[u] + 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, vtxdist.data(), static_cast<int>(p + 1), MPI_UINT64_T, MPI_MIN,
                comm.comm);
  vtxdist[0] = 0;
  vtxdist[p] = graph.global_n;
  for (std::size_t i = 1; i <= p; ++i)
    vtxdist[i] = std::max(vtxdist[i], vtxdist[i - 1]);
  return vtxdist;
}

namespace {

template <typename T>
DistGraph redistribute_as(const Comm& comm, const DistGraph& graph,
                          std::vector<std::uint64_t> vtxdist) {
  std::vector<T> received = route<T>(comm, [&](auto&& send) {
    for (NodeID u = 0; u < graph.n_local; ++u) {
      const NodeID gu = graph.first() + u;
      const int to = owner_of(vtxdist, gu);
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        if constexpr (std::is_same_v<T, Entry>)
          send(to, Entry{gu, graph.global_id(graph.adjacency[e]), graph.edge_weight(e)});
        else
          send(to, Edge{gu, graph.global_id(graph.adjacency[e])});
      }
    }
  });
  std::vector<Weight> vertex_weights;
  const auto received_weights = route<VertexWeight>(comm, [&](auto&& send) {
    if (!graph.vertex_weights.empty())
      for (NodeID u = 0; u < graph.n_local; ++u)
        send(owner_of(vtxdist, graph.first() + u),
             VertexWeight{graph.first() + u, graph.vertex_weights[u]});
  });
  if (!graph.vertex_weights.empty()) {
    const std::uint64_t first = vtxdist[comm.rank];
    vertex_weights.assign(vtxdist[comm.rank + 1] - first, 0);
    for (const VertexWeight& vw : received_weights)
      vertex_weights[vw.u - first] = vw.w;
  }
  return build_dist_graph<T>(comm, std::move(vtxdist), std::move(received),
                             std::move(vertex_weights), Merge::kSum);
}

} // namespace

DistGraph redistribute(const Comm& comm, const DistGraph& graph,
                       std::vector<std::uint64_t> vtxdist) {
  return graph.edge_weights.empty() ? redistribute_as<Edge>(comm, graph, std::move(vtxdist))
                                    : redistribute_as<Entry>(comm, graph, std::move(vtxdist));
}

DistGraph read_distributed_graph(const Comm& comm, const std::string& path,
                                 const io::ReadOptions& options) {
  if (options.relabel)
    throw Unsupported("gnnpart-mpi does not relabel; relabel once with 'gnnpart convert'");
  const BinaryInput binary = run_phase(comm, [&] { return probe_binary_input(path); });
  if (binary.edge_stream) {
    Parsed parsed;
    run_phase(comm, [&] {
      read_edge_stream_slice(path, binary, comm.rank, comm.size, [&](NodeID u, NodeID v) {
        parsed.sources.push_back(u);
        parsed.targets.push_back(v);
      });
    });
    return route(comm, std::move(parsed), binary.n, true, false);
  }
  const bool gzip = run_phase(comm, [&] { return starts_with_gzip(path); });
  const io::GraphFormat format =
      options.format == io::GraphFormat::kAuto
          ? run_phase(comm, [&] { return io::detect_format(path); })
          : options.format;
  if (format == io::GraphFormat::kEdgeList)
    return read_edge_list_text(comm, path, gzip, options);
  if (format == io::GraphFormat::kMetis)
    return read_metis_text(comm, path, gzip);
  run_phase(comm, [&] {
    throw Unsupported(path + ": gnnpart-mpi reads edge lists, METIS files and binary edge "
                             "streams (gnnpart generate -o FILE.bin); convert with "
                             "'gnnpart convert'");
  });
  return {};
}

} // namespace gnnpart::distributed
