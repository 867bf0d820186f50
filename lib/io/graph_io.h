#pragma once
// Reading and writing graphs, hypergraphs and partitions. Every reader reports malformed input
// as InputError "FILE:LINE: what is wrong"; every writer writes a temporary file next to the
// target and renames it into place, so a failed run never leaves a partial output.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/graph.h"
#include "core/graph_builder.h"
#include "core/hypergraph.h"
#include "core/partition.h"
#include "gnnpart/gnnpart_defaults.h"

namespace gnnpart::io {

// kBinaryStream: the edge (.bin) or adjacency (.adj) stream `gnnpart generate` writes, read
// whole (lib/streaming reads it in O(n) memory).
enum class GraphFormat { kAuto, kEdgeList, kMetis, kMatrixMarket, kBinary, kHmetis, kBinaryStream };

// From the extension (a trailing .gz ignored): .txt/.edges/.el/.csv/.tsv -> edge list,
// .graph/.metis -> METIS, .mtx -> Matrix Market, .gnnp -> binary cache, .hgr -> hMETIS.
// Throws InputError for an unknown extension.
GraphFormat detect_format(const std::string& path);
// "edgelist", "metis", "mtx", "binary", "hmetis", "stream"
GraphFormat parse_format(const std::string& name);
std::string_view format_name(GraphFormat format);

struct ReadOptions {
  GraphFormat format = GraphFormat::kAuto;
  bool one_based = false;     // edge lists: ids start at 1
  bool relabel = false;       // edge lists: arbitrary 64-bit labels, compacted to
                              // 0..n-1 in increasing order of label (one_based and
                              // the "# vertices:" header are then ignored)
  std::string label_map_path; // with relabel: write "new_id original_label" lines here
  int threads = GNNPART_DEFAULT_THREADS; // parser threads (<= 0: all hardware threads)
};

struct EdgeListData {
  EdgeList edges;                    // as read, in file order, not symmetrized
  std::vector<std::uint64_t> labels; // with relabel: labels[new id] = original label
  std::uint64_t lines = 0;
};

// Raw edge list in file order (for edge partitioners and streaming). n is max id + 1, or the
// "# vertices: N" (or SNAP "# Nodes: N") header of the leading comment block when larger.
// Lines: "u v [weight]", blanks/tabs/commas between columns, '#' and '%' comments (also after
// the columns), CRLF ok; a .csv file may start with a column-name row. Weights are integers
// >= 1; once any line has one, lines without one weigh 1 (edges.weights stays empty when no
// line has one). A fourth column is an error.
EdgeListData read_edge_list(const std::string& path, const ReadOptions& options = {});

// Any supported graph format, as a symmetric simple CSR graph. With kAuto the extension decides
// (a trailing .gz ignored; gzip itself is recognised by its magic bytes); files without a known
// extension are recognised by content (binary magic, "%%MatrixMarket" banner). Edge lists are
// symmetrized; self loops dropped, parallel edges merged (the largest weight kept).
CsrGraph read_graph(const std::string& path, const ReadOptions& options = {});

// The individual graph readers read_graph dispatches to. METIS: every fmt code (vertex sizes
// are read and dropped), ncon vertex weights, edge weights; the adjacency must be symmetric,
// without self loops or repeated neighbours, and match the header counts. Matrix Market
// coordinate matrices: square; pattern and real/complex values give unit edge weights, integer
// values become edge weights (must be >= 1); general matrices are symmetrized (the larger
// weight of a pair wins) and the diagonal is dropped.
CsrGraph read_metis(const std::string& path, const ReadOptions& options = {});
CsrGraph read_matrix_market(const std::string& path, const ReadOptions& options = {});

// hMETIS hypergraph (fmt 0/1/10/11), plain or gzip.
Hypergraph read_hmetis(const std::string& path, const ReadOptions& options = {});

// Binary CSR cache: versioned header and checksum; loads >= 10x faster than text.
CsrGraph read_binary_graph(const std::string& path);
void write_binary_graph(const CsrGraph& graph, const std::string& path);

void write_metis(const CsrGraph& graph, const std::string& path);
// "u v [w]" with u < v, 0-based.
void write_edge_list(const CsrGraph& graph, const std::string& path);
// Coordinate, symmetric (lower triangle), pattern or (with edge weights) integer.
void write_matrix_market(const CsrGraph& graph, const std::string& path);
void write_hmetis(const Hypergraph& hypergraph, const std::string& path);
// Column-net hypergraph of a graph: one net per vertex u = {u} and N(u).
void write_column_net_hmetis(const CsrGraph& graph, const std::string& path);
// Writes a graph in the given format (kAuto: from the extension; .hgr writes the column-net
// hypergraph). A ".gz" suffix compresses. Edge lists start with "# vertices: n" and
// "# edges: m" so isolated vertices survive; Matrix Market and edge lists drop vertex weights.
void write_graph(const CsrGraph& graph, const std::string& path,
                 GraphFormat format = GraphFormat::kAuto);

// gpmetis convention: one block id per line, line i = vertex i.
Partition read_partition(const std::string& path, NodeID n, BlockID k = 0 /* 0: max id + 1 */);
void write_partition(const Partition& partition, const std::string& path);
// Default output name: "<graph>.part.<k>" with the graph's directory and full file name.
std::string default_partition_path(const std::string& graph_path, BlockID k);

// One vertex id per line (train/val/test sets), '#' comments, plain or gzip; ids checked < n.
std::vector<NodeID> read_vertex_set(const std::string& path, NodeID n);
// One integer per line (labels, vertex weights); exactly n lines.
std::vector<std::int64_t> read_vertex_values(const std::string& path, NodeID n);

} // namespace gnnpart::io
