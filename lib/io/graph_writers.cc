// Text writers for graphs and hypergraphs. Lines are formatted in parallel blocks and written in
// order through an OutputFile (temporary file + rename; ".gz" compresses).
#include <string>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/output_file.h"

namespace gnnpart::io {

namespace {

constexpr std::uint64_t kVerticesPerBlock = 1 << 14;

void write_line_start(std::string& text, std::uint64_t a, std::uint64_t b) {
  append_number(text, a);
  text.push_back(' ');
  append_number(text, b);
}

// One line per undirected edge {u, v}, u < v, in vertex order: write_ends(text, u, v) writes the
// two ids, then the edge weight follows when the graph has edge weights.
template <typename WriteEnds>
void write_edge_lines(OutputFile& out, const CsrGraph& graph, WriteEnds write_ends) {
  const bool ew = graph.has_edge_weights();
  write_parallel_blocks(out, graph.num_nodes(), kVerticesPerBlock,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (NodeID u = static_cast<NodeID>(begin); u < end; ++u)
                            for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
                              const NodeID v = graph.edge_target(e);
                              if (v <= u)
                                continue;
                              write_ends(text, u, v);
                              if (ew) {
                                text.push_back(' ');
                                append_number(text, graph.edge_weight(e));
                              }
                              text.push_back('\n');
                            }
                        });
}

// hMETIS files hold one weight per vertex; `what` names the input in the message.
void require_one_vertex_weight(int ncon, const char* what) {
  if (ncon > 1)
    throw InvalidParameter(std::string("hMETIS files hold one vertex weight; this ") + what +
                           " has ncon = " + std::to_string(ncon));
}

// The hMETIS header "NETS NODES[ FMT]": FMT 1 = net weights, 10 = vertex weights, 11 = both.
void write_hmetis_header(OutputFile& out, std::uint64_t nets, std::uint64_t nodes, bool net_weights,
                         bool vertex_weights) {
  std::string header;
  write_line_start(header, nets, nodes);
  if (net_weights || vertex_weights)
    header += vertex_weights ? (net_weights ? " 11" : " 10") : " 1";
  header.push_back('\n');
  out.write(header);
}

// The hMETIS vertex-weight section after the nets: one line per vertex, only when the graph or
// hypergraph has vertex weights.
template <typename GraphOrHypergraph>
void write_hmetis_vertex_weights(OutputFile& out, const GraphOrHypergraph& input) {
  if (!input.has_vertex_weights())
    return;
  write_parallel_blocks(out, input.num_nodes(), kVerticesPerBlock,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (NodeID u = static_cast<NodeID>(begin); u < end; ++u) {
                            append_number(text, input.vertex_weight(u));
                            text.push_back('\n');
                          }
                        });
}

} // namespace

void write_metis(const CsrGraph& graph, const std::string& path) {
  OutputFile out(path);
  const bool vw = graph.has_vertex_weights(), ew = graph.has_edge_weights();
  std::string header;
  write_line_start(header, graph.num_nodes(), graph.num_edges());
  if (vw || ew) {
    header += vw ? (ew ? " 11" : " 10") : " 1";
    if (graph.ncon() > 1) {
      header.push_back(' ');
      append_number(header, graph.ncon());
    }
  }
  header.push_back('\n');
  out.write(header);
  write_parallel_blocks(out, graph.num_nodes(), kVerticesPerBlock,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (NodeID u = static_cast<NodeID>(begin); u < end; ++u) {
                            bool first = true;
                            auto separate = [&] {
                              if (!first)
                                text.push_back(' ');
                              first = false;
                            };
                            if (vw)
                              for (int c = 0; c < graph.ncon(); ++c) {
                                separate();
                                append_number(text, graph.vertex_weight(u, c));
                              }
                            for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
                              separate();
                              append_number(text, graph.edge_target(e) + std::uint64_t{1});
                              if (ew) {
                                text.push_back(' ');
                                append_number(text, graph.edge_weight(e));
                              }
                            }
                            text.push_back('\n');
                          }
                        });
  out.commit();
}

void write_edge_list(const CsrGraph& graph, const std::string& path) {
  OutputFile out(path);
  std::string header = "# vertices: ";
  append_number(header, graph.num_nodes());
  header += "\n# edges: ";
  append_number(header, graph.num_edges());
  header.push_back('\n');
  out.write(header);
  write_edge_lines(out, graph,
                   [](std::string& text, NodeID u, NodeID v) { write_line_start(text, u, v); });
  out.commit();
}

void write_matrix_market(const CsrGraph& graph, const std::string& path) {
  OutputFile out(path);
  const bool ew = graph.has_edge_weights();
  std::string header = ew ? "%%MatrixMarket matrix coordinate integer symmetric\n"
                          : "%%MatrixMarket matrix coordinate pattern symmetric\n";
  append_number(header, graph.num_nodes());
  header.push_back(' ');
  write_line_start(header, graph.num_nodes(), graph.num_edges());
  header.push_back('\n');
  out.write(header);
  // Symmetric storage keeps the lower triangle: row i >= column j.
  write_edge_lines(out, graph, [](std::string& text, NodeID u, NodeID v) {
    write_line_start(text, v + std::uint64_t{1}, u + std::uint64_t{1});
  });
  out.commit();
}

void write_hmetis(const Hypergraph& hypergraph, const std::string& path) {
  require_one_vertex_weight(hypergraph.ncon(), "hypergraph");
  OutputFile out(path);
  const bool nw = hypergraph.has_net_weights();
  write_hmetis_header(out, hypergraph.num_nets(), hypergraph.num_nodes(), nw,
                      hypergraph.has_vertex_weights());
  write_parallel_blocks(out, hypergraph.num_nets(), kVerticesPerBlock,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (NetID e = static_cast<NetID>(begin); e < end; ++e) {
                            bool first = true;
                            if (nw) {
                              append_number(text, hypergraph.net_weight(e));
                              first = false;
                            }
                            for (const NodeID pin : hypergraph.pins(e)) {
                              if (!first)
                                text.push_back(' ');
                              first = false;
                              append_number(text, pin + std::uint64_t{1});
                            }
                            text.push_back('\n');
                          }
                        });
  write_hmetis_vertex_weights(out, hypergraph);
  out.commit();
}

void write_column_net_hmetis(const CsrGraph& graph, const std::string& path) {
  require_one_vertex_weight(graph.ncon(), "graph");
  OutputFile out(path);
  write_hmetis_header(out, graph.num_nodes(), graph.num_nodes(), /*net_weights=*/false,
                      graph.has_vertex_weights());
  // Net u = {u} and N(u), exactly as evalpart --write-hgr writes it.
  write_parallel_blocks(out, graph.num_nodes(), kVerticesPerBlock,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (NodeID u = static_cast<NodeID>(begin); u < end; ++u) {
                            append_number(text, u + std::uint64_t{1});
                            for (const NodeID v : graph.neighbors(u)) {
                              text.push_back(' ');
                              append_number(text, v + std::uint64_t{1});
                            }
                            text.push_back('\n');
                          }
                        });
  write_hmetis_vertex_weights(out, graph);
  out.commit();
}

} // namespace gnnpart::io
