// gnnpart info GRAPH: size, degree statistics and connected components of a graph.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "command.h"
#include "core/components.h"
#include "core/parallel.h"
#include "support.h"

namespace gnnpart::app {
namespace {

struct InfoArgs {
  std::string graph;
  bool json = false;
  InputFlags input;
};

int run_info(const InfoArgs& args, const GlobalFlags& global) {
  return run_with_threads(args.input.threads, [&] {
    const CsrGraph graph = read_graph_with_progress(args.graph, args.input, global);
    const NodeID n = graph.num_nodes();
    NodeID min_degree = n > 0 ? graph.degree(0) : 0;
    NodeID max_degree = 0;
    for (NodeID u = 0; u < n; ++u) {
      min_degree = std::min(min_degree, graph.degree(u));
      max_degree = std::max(max_degree, graph.degree(u));
    }
    const double avg_degree = n > 0 ? static_cast<double>(graph.num_directed_edges()) / n : 0.0;
    Progress components_progress(global, "finding connected components");
    const std::vector<NodeID> labels = connected_component_labels(graph);
    const ComponentStats stats = component_stats(graph, labels);
    components_progress.finish();
    if (args.json) {
      JsonObject json;
      json.add("graph", args.graph)
          .add("n", std::uint64_t{n})
          .add("m", std::uint64_t{graph.num_edges()})
          .add("min_degree", std::uint64_t{min_degree})
          .add("avg_degree", avg_degree)
          .add("max_degree", std::uint64_t{max_degree})
          .add("components", std::uint64_t{stats.components})
          .add("largest_component", std::uint64_t{stats.largest_component})
          .add("isolated_vertices", std::uint64_t{stats.isolated_vertices})
          .add("edge_weights", std::uint64_t{graph.has_edge_weights()})
          .add("ncon", static_cast<std::uint64_t>(graph.ncon()));
      std::printf("%s\n", json.str().c_str());
      return 0;
    }
    if (global.quiet)
      return 0;
    std::string text = fmt::format("{}\n", args.graph);
    text += fmt::format("  vertices            {}\n", n);
    text += fmt::format("  edges               {}\n", graph.num_edges());
    text +=
        fmt::format("  degree min/avg/max  {} / {:.2f} / {}\n", min_degree, avg_degree, max_degree);
    text +=
        fmt::format("  components          {} (largest {} vertices, {:.2f}%)\n", stats.components,
                    stats.largest_component, n > 0 ? 100.0 * stats.largest_component / n : 0.0);
    text += fmt::format("  isolated vertices   {}\n", stats.isolated_vertices);
    text += fmt::format("  edge weights        {}\n", graph.has_edge_weights() ? "yes" : "no");
    text += fmt::format("  vertex constraints  {}{}\n", graph.ncon(),
                        graph.has_vertex_weights() ? " (weighted)" : " (unit)");
    std::fputs(text.c_str(), stdout);
    return 0;
  });
}

CommandRunner setup_info(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* cmd = parent.add_subcommand("info", "size, degrees and components of a graph");
  cmd->footer("Example:\n  gnnpart info datasets/cora.edges.gz");
  cmd->add_option("GRAPH", args->graph, "input graph")->required();
  cmd->add_flag("--json", args->json, "print one JSON object");
  add_input_flags(*cmd, args->input);
  return [args, &global] { return run_info(*args, global); };
}

const RegisterCommand kRegister("info", 40, setup_info);

} // namespace
} // namespace gnnpart::app
