#include "distributed/input.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <type_traits>

#include "core/errors.h"
#include "distributed/binary_slices.h"
#include "distributed/chunked_route.h"
#include "distributed/text_slices.h"
#include "io/input_buffer.h"
#include "io/range_parsers.h"
#include "io/text_parsing.h"

namespace gnnpart::distributed {

namespace {

using io::detail::count_newlines;

// Text pieces hold about this many bytes per chunk item (an edge line is 10 to 20 bytes).
constexpr std::size_t kTextBytesPerItem = 16;

// The edges of one text piece (edge lists: one entry per line; METIS: one per adjacency
// entry) in global ids.
struct EdgeChunk {
  std::vector<NodeID> sources, targets;
  std::vector<Weight> weights; // empty: every edge of the chunk weighs 1
};
// What this rank parsed: for a plain file where its pieces lie, to be read and parsed again
// by every pass of the routing (one piece's edges held at a time: 4 B per entry less than
// holding them); for gzip, which cannot be read again, the edges in chunks of one piece each
// (so that routing can free them one by one). Besides, vertex weights of METIS rows and the
// first failure in file order.
struct Parsed {
  bool hold = false;             // gzip: keep the chunks
  std::vector<EdgeChunk> chunks; // hold
  std::vector<PieceMark> marks;  // !hold
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

// Keeps a parsed piece as Parsed says: its chunk (trimmed), or where it lies.
void keep(const TextPiece& piece, EdgeChunk chunk, Parsed& parsed) {
  if (!parsed.hold) {
    parsed.marks.push_back(mark_of(piece));
    return;
  }
  chunk.sources.shrink_to_fit();
  chunk.targets.shrink_to_fit();
  chunk.weights.shrink_to_fit();
  parsed.chunks.push_back(std::move(chunk));
}

// The edges of an edge-list piece; adds its facts (ids, weights, failure) to parsed.
EdgeChunk parse_edge_piece(const TextPiece& piece, bool one_based, Parsed& parsed) {
  if (parsed.failed())
    return {}; // later pieces cannot hold an earlier line
  io::detail::EdgeRange range =
      io::detail::parse_edge_list_range(piece.bytes, piece.begin, piece.end, one_based);
  record_failure(parsed, piece, range.failure);
  parsed.weighted = parsed.weighted || !range.weights.empty();
  if (range.any) {
    parsed.any = true;
    parsed.max_id = std::max(parsed.max_id, range.max_id);
  }
  return {std::move(range.sources), std::move(range.targets), std::move(range.weights)};
}

// The edges of a METIS piece; adds its facts (vertex weights, entries, failure) to parsed.
EdgeChunk parse_metis_piece(const TextPiece& piece, const io::detail::MetisHeader& header,
                            Parsed& parsed) {
  if (parsed.failed())
    return {};
  io::detail::MetisRange range =
      io::detail::parse_metis_range(piece.bytes, piece.begin, piece.end, piece.first_row, header);
  record_failure(parsed, piece, range.failure);
  EdgeChunk chunk;
  chunk.sources.reserve(range.adjacency.size());
  for (std::size_t row = 0; row < range.degrees.size(); ++row) {
    const NodeID u = static_cast<NodeID>(piece.first_row + row);
    chunk.sources.insert(chunk.sources.end(), range.degrees[row], u);
    if (!range.vertex_weights.empty())
      parsed.vertex_weights.push_back({u, range.vertex_weights[row * header.ncon]});
  }
  chunk.targets = std::move(range.adjacency);
  chunk.weights = std::move(range.edge_weights);
  parsed.entry_count += chunk.targets.size();
  parsed.weighted = parsed.weighted || !chunk.weights.empty();
  return chunk;
}

using PieceParser = std::function<EdgeChunk(const TextPiece&, Parsed&)>;

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

// The edges of this rank's input, chunk by chunk: for_each(c, edge) calls edge(u, v, w) for
// every edge of chunk c; release(c) after its last use.
struct EdgeSource {
  std::uint64_t chunks = 0;
  std::function<void(std::uint64_t, const std::function<void(NodeID, NodeID, Weight)>&)> for_each;
  std::function<void(std::uint64_t)> release = [](std::uint64_t) {};
};

// Vertex ranges balanced by degree without building a graph first: a histogram of the routed
// entries' sources over at most kBuckets buckets of consecutive ids (vertex u weighs
// deg(u) + 1, entries counted before duplicates merge); rank r gets the buckets whose weight
// prefix falls into [r, r + 1) * total / P. Collective.
constexpr std::uint64_t kBuckets = std::uint64_t{1} << 18;

std::vector<std::uint64_t> degree_balanced_ranges(const Comm& comm, const EdgeSource& source,
                                                  std::uint64_t n, bool symmetrize) {
  const std::uint64_t width = std::max<std::uint64_t>(1, (n + kBuckets - 1) / kBuckets);
  const std::uint64_t buckets = std::max<std::uint64_t>(1, (n + width - 1) / width);
  std::vector<std::uint64_t> histogram(buckets, 0);
  run_phase(comm, [&] { // the first pass over a binary input finds its errors
    for (std::uint64_t c = 0; c < source.chunks; ++c)
      source.for_each(c, [&](NodeID u, NodeID v, Weight) {
        if (u == v)
          return;
        ++histogram[u / width];
        if (symmetrize)
          ++histogram[v / width];
      });
  });
  sum_all_in_place(comm, histogram);
  const auto weight = [&](std::uint64_t b) {
    return histogram[b] + std::min(width, n - b * width);
  };
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < buckets; ++b)
    total += weight(b);
  const std::uint64_t p = static_cast<std::uint64_t>(comm.size);
  std::vector<std::uint64_t> vtxdist(p + 1, n);
  vtxdist[0] = 0;
  std::uint64_t prefix = 0, r = 1;
  for (std::uint64_t b = 0; b < buckets && r < p; ++b) {
    while (r < p && static_cast<unsigned __int128>(prefix) * p >=
                        static_cast<unsigned __int128>(r) * total)
      vtxdist[r++] = b * width;
    prefix += weight(b);
  }
  return vtxdist;
}

// Sends every edge of source to the owner of its source vertex (both directions of an
// undirected edge when symmetrize; self loops dropped) as T (Entry or Edge), chunk by chunk,
// into the CSR rows there.
template <typename T>
DistGraph route_as(const Comm& comm, const EdgeSource& source, std::vector<std::uint64_t> vtxdist,
                   bool symmetrize, std::vector<Weight> vertex_weights) {
  const auto make = [](NodeID u, NodeID v, Weight w) {
    if constexpr (std::is_same_v<T, Entry>)
      return Entry{u, v, w};
    else
      return Edge{u, v};
  };
  const std::vector<std::uint64_t> ranges = vtxdist;
  return build_dist_graph_streamed<T>(
      comm, std::move(vtxdist), source.chunks,
      [&](std::uint64_t c, auto&& send, RoutePass pass) {
        source.for_each(c, [&](NodeID u, NodeID v, Weight w) {
          if (u == v)
            return;
          send(owner_of(ranges, u), make(u, v, w));
          if (symmetrize)
            send(owner_of(ranges, v), make(v, u, w));
        });
        if (pass == RoutePass::kFill)
          source.release(c);
      },
      std::move(vertex_weights), Merge::kMax);
}

// Routes the edges of source to the owners of their endpoints under degree-balanced ranges and
// builds the graph there.
DistGraph route(const Comm& comm, const EdgeSource& source, std::uint64_t n, bool symmetrize,
                bool weighted, std::span<const VertexWeight> parsed_vertex_weights,
                bool vertex_weighted) {
  weighted = sum_all(comm, std::uint64_t{weighted ? 1u : 0u}) > 0;
  std::vector<std::uint64_t> vtxdist = degree_balanced_ranges(comm, source, n, symmetrize);
  std::vector<Weight> vertex_weights;
  if (vertex_weighted) {
    const auto arrived = distributed::route<VertexWeight>(comm, [&](auto&& send) {
      for (const VertexWeight& vw : parsed_vertex_weights)
        send(owner_of(vtxdist, vw.u), vw);
    });
    const NodeID first = static_cast<NodeID>(vtxdist[comm.rank]);
    vertex_weights.assign(vtxdist[comm.rank + 1] - first, 0);
    for (const VertexWeight& vw : arrived)
      vertex_weights[vw.u - first] = vw.w;
  }
  return weighted ? route_as<Entry>(comm, source, std::move(vtxdist), symmetrize,
                                    std::move(vertex_weights))
                  : route_as<Edge>(comm, source, std::move(vtxdist), symmetrize,
                                   std::move(vertex_weights));
}

// A text input as an edge source: the held chunks, or each piece read and parsed again when
// a pass comes to it (the last one parsed is kept, as every round asks for its chunk more than
// once).
DistGraph route_parsed(const Comm& comm, const std::string& path, Parsed& parsed,
                       const PieceParser& parse, std::uint64_t n, bool symmetrize,
                       bool vertex_weighted) {
  EdgeSource source;
  source.chunks = parsed.hold ? parsed.chunks.size() : parsed.marks.size();
  EdgeChunk reparsed;
  std::uint64_t held = ~std::uint64_t{0};
  const auto chunk_of = [&](std::uint64_t c) -> const EdgeChunk& {
    if (parsed.hold)
      return parsed.chunks[c];
    if (held != c) {
      TextPiece piece;
      reread_piece(path, parsed.marks[c], piece);
      Parsed scratch;
      reparsed = parse(piece, scratch);
      held = c;
    }
    return reparsed;
  };
  source.for_each = [&](std::uint64_t c, const std::function<void(NodeID, NodeID, Weight)>& edge) {
    const EdgeChunk& chunk = chunk_of(c);
    for (std::size_t i = 0; i < chunk.sources.size(); ++i)
      edge(chunk.sources[i], chunk.targets[i], chunk.weights.empty() ? 1 : chunk.weights[i]);
  };
  source.release = [&](std::uint64_t c) {
    if (parsed.hold)
      parsed.chunks[c] = EdgeChunk{};
  };
  DistGraph graph =
      route(comm, source, n, symmetrize, parsed.weighted, parsed.vertex_weights, vertex_weighted);
  parsed = Parsed{};
  return graph;
}

DistGraph read_edge_list_text(const Comm& comm, const std::string& path, bool gzip,
                              const io::ReadOptions& options, std::uint64_t chunk_items) {
  std::uint64_t declared = 0;
  TextFormat format;
  format.piece_bytes = kTextBytesPerItem * chunk_items;
  format.data_begin = [&](std::string_view head) {
    return io::detail::edge_list_data_begin(head, path, declared);
  };
  Parsed parsed;
  parsed.hold = gzip;
  const PieceParser parse = [&](const TextPiece& piece, Parsed& facts) {
    return parse_edge_piece(piece, options.one_based, facts);
  };
  const TextStats stats =
      for_each_text_piece(comm, path, gzip, format, [&](const TextPiece& piece) {
        keep(piece, parse(piece, parsed), parsed);
      });
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
  return route_parsed(comm, path, parsed, parse, n, true, false);
}

void broadcast_header(const Comm& comm, io::detail::MetisHeader& header) {
  std::uint64_t fields[8] = {header.n,
                             header.m,
                             header.vertex_sizes,
                             header.vertex_weights,
                             header.edge_weights,
                             static_cast<std::uint64_t>(header.ncon),
                             header.rows_begin,
                             header.line};
  MPI_Bcast(fields, 8, MPI_UINT64_T, 0, comm.comm);
  header = {fields[0],      fields[1],      fields[2] != 0,
            fields[3] != 0, fields[4] != 0, static_cast<int>(fields[5]),
            fields[6],      fields[7]};
}

DistGraph read_metis_text(const Comm& comm, const std::string& path, bool gzip,
                          std::uint64_t chunk_items) {
  io::detail::MetisHeader header;
  TextFormat format;
  format.piece_bytes = kTextBytesPerItem * chunk_items;
  format.count_rows = true;
  format.data_begin = [&](std::string_view head) {
    header = io::detail::read_metis_header(path, head);
    if (header.ncon > 1)
      throw Unsupported(path +
                        ": gnnpart-mpi balances one constraint; this METIS file has ncon = " +
                        std::to_string(header.ncon));
    return header.rows_begin;
  };
  // The header is needed before any piece is parsed: rank 0 reads it first (for gzip too, so
  // that every piece is parsed as it arrives, not held).
  run_phase(comm, [&] {
    if (comm.rank == 0) {
      const std::string head = read_text_head(path);
      if (head.empty())
        throw InputError(path, 0, "empty input");
      format.data_begin(std::string_view(head).substr(check_text_head(path, head)));
    }
  });
  broadcast_header(comm, header);
  format.data_begin = [&](std::string_view) { return header.rows_begin; };
  Parsed parsed;
  parsed.hold = gzip;
  const PieceParser parse = [&](const TextPiece& piece, Parsed& facts) {
    return parse_metis_piece(piece, header, facts);
  };
  const TextStats stats = for_each_text_piece(
      comm, path, gzip, format, [&](const TextPiece& p) { keep(p, parse(p, parsed), parsed); });
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
  return route_parsed(comm, path, parsed, parse, header.n, false, header.vertex_weights);
}

} // namespace

DistGraph read_distributed_graph(const Comm& comm, const std::string& path,
                                 const io::ReadOptions& options, std::uint64_t chunk_items) {
  if (options.relabel)
    throw Unsupported("gnnpart-mpi does not relabel; relabel once with 'gnnpart convert'");
  // Each rank routes chunks of chunk_items / P edges, so that a round brings a rank at most
  // about chunk_items edges (twice that symmetrized) from all ranks together.
  chunk_items = std::max<std::uint64_t>(1, chunk_items / static_cast<std::uint64_t>(comm.size));
  const BinaryInput binary = run_phase(comm, [&] { return probe_binary_input(path); });
  if (binary.edge_stream) {
    // Read straight from the file, block by block, in every pass: no copy of the input is held.
    std::unique_ptr<EdgeStreamSlice> slice = run_phase(comm, [&] {
      return std::make_unique<EdgeStreamSlice>(path, binary, comm.rank, comm.size, chunk_items);
    });
    EdgeSource source;
    source.chunks = slice->blocks();
    source.for_each = [&](std::uint64_t c,
                          const std::function<void(NodeID, NodeID, Weight)>& edge) {
      slice->for_each_edge(c, [&](NodeID u, NodeID v) { edge(u, v, 1); });
    };
    return route(comm, source, binary.n, true, false, {}, false);
  }
  const bool gzip = run_phase(comm, [&] { return starts_with_gzip(path); });
  const io::GraphFormat format = options.format == io::GraphFormat::kAuto
                                     ? run_phase(comm, [&] { return io::detect_format(path); })
                                     : options.format;
  if (format == io::GraphFormat::kEdgeList)
    return read_edge_list_text(comm, path, gzip, options, chunk_items);
  if (format == io::GraphFormat::kMetis)
    return read_metis_text(comm, path, gzip, chunk_items);
  run_phase(comm, [&] {
    throw Unsupported(path + ": gnnpart-mpi reads edge lists, METIS files and binary edge "
                             "streams (gnnpart generate -o FILE.bin); convert with "
                             "'gnnpart convert'");
  });
  return {};
}

} // namespace gnnpart::distributed
