// gnnpart generate rmat|ba|rgg|mesh|grid3d|web: synthetic graphs for streaming at scale, written
// atomically as a SNAP edge list (u < v, "# vertices: N" header), a binary edge stream or a binary
// adjacency stream.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command.h"
#include "core/errors.h"
#include "outputs.h"
#include "streaming/generator.h"
#include "streaming/rmat_stream.h"

namespace gnnpart::app {
namespace {

struct GenerateArgs {
  std::string kind;
  std::uint64_t vertices = 0;
  std::uint64_t edges = 0;
  std::uint64_t seed = 0;
  std::string output;
  std::string format = "auto";
  bool shuffle = false;
  bool relabel = false;
  std::uint64_t hub_degree = 0;
  std::vector<double> rmat;              // a, b, c
  int threads = GNNPART_DEFAULT_THREADS; // <= 0: all hardware threads
  std::uint64_t memory_mb = 512;
  std::string temp_dir;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_generate(const GenerateArgs& args, const GlobalFlags& global) {
  using namespace streaming;
  GeneratorOptions options;
  options.kind = parse_generator_kind(args.kind);
  if (args.vertices > kMaxNodeID + 1) {
    throw InvalidParameter(std::string("--vertices too large; ") + kWideIdHint);
  }
  options.n = static_cast<NodeID>(args.vertices);
  options.m = args.edges;
  options.seed = args.seed;
  options.threads = args.threads;
  options.shuffle = args.shuffle;
  options.relabel = args.relabel;
  if (args.hub_degree >= options.n)
    throw InvalidParameter("--hub-degree must be below --vertices");
  options.hub_degree = static_cast<NodeID>(args.hub_degree);
  if (!args.rmat.empty()) {
    options.rmat_a = args.rmat[0];
    options.rmat_b = args.rmat[1];
    options.rmat_c = args.rmat[2];
  }
  GeneratedFormat format = GeneratedFormat::kEdgeList;
  if (args.format == "auto") {
    if (ends_with(args.output, ".bin") || ends_with(args.output, ".bes"))
      format = GeneratedFormat::kBinary;
    if (ends_with(args.output, ".adj"))
      format = GeneratedFormat::kAdjacency;
  } else {
    format = parse_generated_format(args.format);
  }
  CommandOutputs outputs;
  outputs.file(args.output); // before generating, not after
  const auto start = std::chrono::steady_clock::now();
  if (global.verbosity > 0) {
    fmt::print(stderr, "generating {} graph: n = {}, m = {}, seed {}\n", args.kind, options.n,
               options.m, options.seed);
  }
  std::string flags;
  if (!args.rmat.empty())
    flags += fmt::format(" --rmat {} {} {}", args.rmat[0], args.rmat[1], args.rmat[2]);
  if (args.hub_degree > 0)
    flags += fmt::format(" --hub-degree {}", args.hub_degree);
  if (args.relabel)
    flags += " --relabel";
  if (args.shuffle)
    flags += " --shuffle";
  std::vector<std::string> comments = {
      fmt::format("generator: gnnpart generate {} --vertices {} --edges {} --seed {}{}", args.kind,
                  args.vertices, args.edges, args.seed, flags)};
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (can_stream_generation(options)) {
    // The same file as below, in bounded memory (rmat_stream.h).
    const StreamedGeneration streamed = generate_to_file(options, args.output, format, comments,
                                                         args.memory_mb << 20, args.temp_dir);
    if (!global.quiet) {
      fmt::print("{}: {} vertices, {} edges ({} generated and written in {:.2f}s: {} rounds, {} "
                 "draws, {} buckets)\n",
                 args.output, options.n, streamed.m, args.kind, seconds(), streamed.rounds,
                 streamed.draws, streamed.buckets);
    }
    return 0;
  }
  const GeneratedGraph graph = generate_graph(options);
  const double gen_seconds = seconds();
  if (options.kind == GeneratorKind::kGeometric) {
    comments.push_back(fmt::format("radius: {:.9g}", graph.radius));
  }
  write_generated(graph, args.output, format, comments, args.memory_mb << 20, args.temp_dir);
  const double total = seconds();
  if (!global.quiet) {
    fmt::print("{}: {} vertices, {} edges ({} generated in {:.2f}s, written in {:.2f}s)\n",
               args.output, graph.n, graph.edges.size(), args.kind, gen_seconds,
               total - gen_seconds);
  }
  return 0;
}

CommandRunner setup_generate(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<GenerateArgs>();
  CLI::App* cmd = parent.add_subcommand("generate", "synthetic graphs: R-MAT, Barabasi-Albert, "
                                                    "random geometric, meshes, web-like");
  cmd->footer(
      "Examples:\n  gnnpart generate rmat --vertices 1000000 --edges 10000000 --seed 1 -o g.edges\n"
      "  gnnpart generate rgg --vertices 100000 --edges 500000 -o mesh.bin --format binary\n"
      "  gnnpart generate mesh --vertices 40000 --hub-degree 200 --relabel -o hub_mesh.edges");
  cmd->add_option("KIND", args->kind,
                  "rmat (Graph500 a=.57 b=.19 c=.19), ba, rgg (2D), mesh (triangulated 2D grid), "
                  "grid3d (7-point 3D grid), web (copying model inside hosts)")
      ->required()
      ->check(CLI::IsMember({"rmat", "ba", "rgg", "mesh", "grid3d", "web"}));
  cmd->add_option("--vertices,-n", args->vertices, "number of vertices")->required();
  cmd->add_option("--edges,-m", args->edges,
                  "number of distinct undirected edges (ba: m/n per vertex, web: at most m; "
                  "mesh, grid3d: not used, the edge count follows from n)");
  cmd->add_option("--rmat", args->rmat, "rmat: quadrant probabilities a b c (d = 1 - a - b - c)")
      ->expected(3);
  cmd->add_option("--hub-degree", args->hub_degree,
                  "vertex 0 joins random vertices until it has this many neighbours");
  cmd->add_flag("--relabel", args->relabel,
                "renumber the vertices by a random (seeded) permutation: no id locality");
  cmd->add_option("--seed,-s", args->seed, "random seed");
  cmd->add_option("-o,--output", args->output, "output file")->required();
  cmd->add_option("--format", args->format,
                  "edgelist (text, .gz compresses), binary (edge stream), adjacency "
                  "(binary adjacency stream); auto: .bin -> binary, .adj -> adjacency")
      ->check(CLI::IsMember({"auto", "edgelist", "binary", "adjacency"}));
  cmd->add_flag("--shuffle", args->shuffle, "write edges in random order (default: sorted)");
  cmd->add_option("-t,--threads", args->threads, "threads (0: all)");
  cmd->add_option("--memory-limit", args->memory_mb,
                  "MiB of sort buffer: rmat's buckets (written in bounded memory unless "
                  "--hub-degree or --shuffle), --format adjacency");
  cmd->add_option("--temp-dir", args->temp_dir, "directory for temporary files");
  return [args, &global] { return run_generate(*args, global); };
}

const RegisterCommand kRegister("generate", 60, setup_generate);

} // namespace
} // namespace gnnpart::app
