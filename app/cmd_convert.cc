// gnnpart convert IN OUT: rewrites a graph in another format (or its column-net hypergraph).
#include <memory>
#include <string>

#include <fmt/format.h>

#include "command.h"
#include "core/errors.h"
#include "core/parallel.h"
#include "io/graph_io.h"
#include "outputs.h"
#include "support.h"

namespace gnnpart::app {
namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
  std::string to;
  bool column_net = false;
  InputFlags flags;
};

int run_convert(const ConvertArgs& args, const GlobalFlags& global) {
  CommandOutputs outputs;
  outputs.file(args.output); // before the input is read, not after
  return run_with_threads(args.flags.threads, [&] {
    const io::GraphFormat in_format = args.flags.format.empty()
                                          ? io::detect_format(args.input)
                                          : io::parse_format(args.flags.format);
    const io::GraphFormat out_format =
        args.to.empty() ? io::detect_format(args.output) : io::parse_format(args.to);
    if (in_format == io::GraphFormat::kHmetis) {
      if (out_format != io::GraphFormat::kHmetis || args.column_net)
        throw Unsupported("a hypergraph (.hgr) converts only to hMETIS");
      Progress reading(global, fmt::format("reading {}", args.input));
      const Hypergraph hypergraph = io::read_hmetis(args.input, read_options(args.flags));
      reading.finish();
      Progress writing(global, fmt::format("writing {}", args.output));
      io::write_hmetis(hypergraph, args.output);
      writing.finish();
      return 0;
    }
    const CsrGraph graph = read_graph_with_progress(args.input, args.flags, global);
    Progress writing(global, fmt::format("writing {}", args.output));
    if (args.column_net || out_format == io::GraphFormat::kHmetis) {
      io::write_column_net_hmetis(graph, args.output);
    } else {
      io::write_graph(graph, args.output, out_format);
    }
    writing.finish();
    if (!global.quiet)
      std::printf("gnnpart: wrote %s (n = %llu, m = %llu)\n", args.output.c_str(),
                  static_cast<unsigned long long>(graph.num_nodes()),
                  static_cast<unsigned long long>(graph.num_edges()));
    return 0;
  });
}

CommandRunner setup_convert(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = parent.add_subcommand("convert", "convert a graph to another format");
  cmd->footer(R"(Examples:
  gnnpart convert graph.edges.gz graph.graph          (METIS, from the extension)
  gnnpart convert graph.edges.gz graph.gnnp           (binary cache, loads fast)
  gnnpart convert graph.graph out.txt --to edgelist
  gnnpart convert graph.edges.gz graph.hgr --column-net   (net u = {u} + N(u)))");
  cmd->add_option("IN", args->input, "input graph")->required();
  cmd->add_option("OUT", args->output, "output file (.gz compresses)")->required();
  cmd->add_option("--to", args->to,
                  "output format: edgelist, metis, mtx, binary, hmetis (default: from OUT)")
      ->check(CLI::IsMember({"edgelist", "metis", "mtx", "binary", "hmetis"}));
  cmd->add_flag("--column-net", args->column_net,
                "write the column-net hypergraph in hMETIS format (one net per vertex)");
  add_input_flags(*cmd, args->flags);
  return [args, &global] { return run_convert(*args, global); };
}

const RegisterCommand kRegister("convert", 30, setup_convert);

} // namespace
} // namespace gnnpart::app
