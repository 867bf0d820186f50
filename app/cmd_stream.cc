// gnnpart stream FILE -k K --algo ldg|fennel|buffered|hdrf|dbh|2ps: streaming partitioning in
// O(n + k + buffer) memory. Vertex partitioners write one block per vertex line (gpmetis
// format), edge partitioners one block per input edge line, both atomically; metrics follow
// from one more pass over the stream.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "command.h"
#include "core/errors.h"
#include "streaming/buffered_partitioner.h"
#include "streaming/edge_partitioner.h"
#include "streaming/progress.h"
#include "streaming/stream_metrics.h"
#include "streaming/stream_source.h"
#include "streaming/temp_file.h"
#include "streaming/training_weights.h"
#include "streaming/vertex_partitioner.h"
#include "outputs.h"
#include "support.h"

namespace gnnpart::app {
namespace {

struct StreamArgs {
  std::string input;
  std::string output;
  std::string algorithm = "fennel";
  std::string objective = "cut";
  std::string format = "auto";
  std::string temp_dir;
  std::string keep_adjacency;
  std::uint64_t memory_mb = 256;
  bool one_based = false;
  bool sorted = false;
  bool json = false;
  bool no_metrics = false;
  streaming::StreamOptions options;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int run_vertex(const StreamArgs& args, const GlobalFlags& global, streaming::ProgressMeter& meter) {
  using namespace streaming;
  StreamOptions options = args.options;
  VertexStreamOptions open_options;
  open_options.format = parse_stream_format(args.format);
  open_options.one_based = args.one_based;
  open_options.sorted_input = args.sorted;
  open_options.sort.memory_bytes = args.memory_mb << 20;
  open_options.sort.temp_dir = args.temp_dir;
  open_options.keep_adjacency_path = args.keep_adjacency;
  open_options.progress = &meter;
  const auto start = Clock::now();
  OpenedVertexStream opened = open_vertex_stream(args.input, open_options);
  const double sort_seconds = seconds_since(start);
  VertexStream& stream = *opened.stream;
  if (options.k > stream.num_nodes() && stream.num_nodes() > 0) {
    throw InvalidParameter(
        fmt::format("k = {} exceeds the {} vertices", options.k, stream.num_nodes()));
  }
  std::vector<float> net_weights;
  if (!options.train_path.empty()) {
    options.objective = StreamObjective::kVolume;
    const auto train = read_training_ids(options.train_path, stream.num_nodes());
    net_weights = minibatch_net_weights(stream, train, options.minibatch_size);
  }
  VertexStreamStats stats;
  const auto part_start = Clock::now();
  Partition partition =
      options.algorithm == StreamAlgorithm::kBuffered
          ? stream_partition_buffered(stream, options, net_weights, &meter, &stats)
          : stream_partition_vertices(stream, options, net_weights, &meter, &stats);
  const double part_seconds = seconds_since(part_start);
  const std::string& output = args.output;
  {
    io::OutputFile out(output, false);
    LineNumberWriter writer(out);
    for (const BlockID b : partition.blocks)
      writer.put(b);
    writer.flush();
    out.commit();
  }
  const double first_pass = stats.pass_seconds.empty() ? 0.0 : stats.pass_seconds.front();
  const double first_cpu = stats.pass_cpu_seconds.empty() ? 0.0 : stats.pass_cpu_seconds.front();
  const double edges = static_cast<double>(stats.edges_per_pass);
  JsonObject json;
  json.add("input", args.input)
      .add("output", output)
      .add("algorithm", std::string(to_string(options.algorithm)))
      .add("objective", args.objective)
      .add("k", std::uint64_t{options.k})
      .add("passes", static_cast<std::uint64_t>(stats.pass_seconds.size()))
      .add("n", std::uint64_t{stream.num_nodes()})
      .add("m", std::uint64_t{stream.num_edges()})
      .add("sort_seconds", opened.sorted ? sort_seconds : 0.0)
      .add("sort_runs", std::uint64_t{opened.sort_stats.runs})
      .add("partition_seconds", part_seconds)
      .add("first_pass_seconds", first_pass)
      .add("edges_per_second", first_pass > 0 ? edges / first_pass : 0.0)
      .add("first_pass_cpu_seconds", first_cpu)
      .add("edges_per_cpu_second", first_cpu > 0 ? edges / first_cpu : 0.0);
  std::string text =
      fmt::format("{}: {} vertices, {} edges, k = {}, {}{} ({} pass{})\n", args.input,
                  stream.num_nodes(), stream.num_edges(), options.k, to_string(options.algorithm),
                  options.objective == StreamObjective::kVolume ? " volume" : "",
                  stats.pass_seconds.size(), stats.pass_seconds.size() == 1 ? "" : "es");
  if (opened.sorted) {
    text += fmt::format("  sort            {} ({} run{}, {} self loops, {} duplicates dropped)\n",
                        format_seconds(sort_seconds), opened.sort_stats.runs,
                        opened.sort_stats.runs == 1 ? "" : "s", opened.sort_stats.self_loops,
                        opened.sort_stats.duplicate_entries / 2);
  }
  text +=
      fmt::format("  partition       {} (first pass {}, {} edges/s; CPU {}, {} edges/s)\n",
                  format_seconds(part_seconds), format_seconds(first_pass),
                  short_count(first_pass > 0 ? edges / first_pass : 0.0), format_seconds(first_cpu),
                  short_count(first_cpu > 0 ? edges / first_cpu : 0.0));
  if (options.algorithm == StreamAlgorithm::kBuffered) {
    text += fmt::format("  batches         {} ({} solved by the local fallback)\n", stats.batches,
                        stats.engine_fallbacks);
    json.add("batches", stats.batches).add("engine_fallbacks", stats.engine_fallbacks);
  }
  if (!args.no_metrics) {
    const GraphMetrics metrics = compute_stream_metrics(stream, partition, &meter);
    add_metrics(json, metrics, 0);
    text += metrics_text(metrics, 0);
  }
  text += fmt::format("  output          {}\n", output);
  if (args.json) {
    std::printf("%s\n", json.str().c_str());
  } else if (!global.quiet) {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

int run_edge(const StreamArgs& args, const GlobalFlags& global, streaming::ProgressMeter& meter) {
  using namespace streaming;
  const StreamOptions& options = args.options;
  auto stream = open_edge_stream(args.input, parse_stream_format(args.format), args.one_based);
  const std::string& output = args.output;
  io::OutputFile out(output, false);
  LineNumberWriter writer(out);
  const auto start = Clock::now();
  const double cpu_start = thread_cpu_seconds();
  const EdgePartitionMetrics metrics = stream_partition_edges(
      *stream, options,
      [&](const EdgeBatch&, std::span<const BlockID> blocks) {
        for (const BlockID b : blocks)
          writer.put(b);
      },
      &meter);
  const double seconds = seconds_since(start);
  const double cpu = thread_cpu_seconds() - cpu_start;
  writer.flush();
  out.commit();
  JsonObject json;
  json.add("input", args.input)
      .add("output", output)
      .add("algorithm", std::string(to_string(options.algorithm)))
      .add("k", std::uint64_t{options.k})
      .add("n", std::uint64_t{metrics.n})
      .add("m", std::uint64_t{metrics.m})
      .add("partition_seconds", seconds)
      .add("edges_per_second", seconds > 0 ? static_cast<double>(metrics.m) / seconds : 0.0)
      .add("cpu_seconds", cpu)
      .add("edges_per_cpu_second", cpu > 0 ? static_cast<double>(metrics.m) / cpu : 0.0)
      .add("replication_factor", metrics.replication_factor)
      .add("vertex_copies", std::uint64_t{metrics.vertex_copies})
      .add("covered_vertices", std::uint64_t{metrics.covered_vertices})
      .add("edge_imbalance", metrics.edge_imbalance);
  std::vector<std::int64_t> edges_per_block(metrics.edges_per_block.begin(),
                                            metrics.edges_per_block.end());
  std::vector<std::int64_t> copies_per_block(metrics.copies_per_block.begin(),
                                             metrics.copies_per_block.end());
  json.add("edges_per_block", edges_per_block).add("copies_per_block", copies_per_block);
  if (args.json) {
    std::printf("%s\n", json.str().c_str());
  } else if (!global.quiet) {
    EdgeID max_edges = 0;
    NodeID max_copies = 0;
    for (BlockID b = 0; b < options.k; ++b) {
      max_edges = std::max(max_edges, metrics.edges_per_block[b]);
      max_copies = std::max(max_copies, metrics.copies_per_block[b]);
    }
    std::string text = fmt::format("{}: {} vertices, {} edges, k = {}, {}\n", args.input, metrics.n,
                                   metrics.m, options.k, to_string(options.algorithm));
    text += fmt::format("  partition          {} ({} edges/s over all passes)\n",
                        format_seconds(seconds),
                        short_count(seconds > 0 ? static_cast<double>(metrics.m) / seconds : 0));
    text +=
        fmt::format("  replication factor {:.4f} ({} copies of {} covered vertices)\n",
                    metrics.replication_factor, metrics.vertex_copies, metrics.covered_vertices);
    text += fmt::format("  edge imbalance     {:.4f} (max {} edges per block)\n",
                        metrics.edge_imbalance, max_edges);
    text += fmt::format("  max vertex copies  {} in one block\n", max_copies);
    text += fmt::format("  output             {}\n", output);
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

int run_stream(StreamArgs& args, const GlobalFlags& global) {
  using namespace streaming;
  args.options.algorithm = parse_stream_algorithm(args.algorithm);
  args.options.objective =
      args.objective == "volume" ? StreamObjective::kVolume : StreamObjective::kCut;
  check_stream_options(args.options);
  const bool edges = is_edge_partitioner(args.options.algorithm);
  const bool default_output = args.output.empty();
  if (default_output)
    args.output = default_output_path(
        args.input, fmt::format("{}.{}", edges ? ".epart" : ".part", args.options.k));
  CommandOutputs outputs;
  outputs.file(args.output); // before the stream is read, not after
  const bool show = !global.quiet && (global.verbosity > 0 || ::isatty(STDERR_FILENO) != 0);
  ProgressMeter meter(show ? stderr : nullptr, ::isatty(STDERR_FILENO) != 0);
  const int status = edges ? run_edge(args, global, meter) : run_vertex(args, global, meter);
  outputs.keep();
  if (default_output)
    note(global, fmt::format("no -o given: the partition is {} in the current directory",
                             args.output));
  return status;
}

CommandRunner setup_stream(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<StreamArgs>();
  CLI::App* cmd = parent.add_subcommand(
      "stream", "streaming partitioning in O(n) memory: vertex splits (ldg, fennel, buffered) "
                "and edge splits (hdrf, dbh, 2ps)");
  cmd->footer(
      "Examples:\n"
      "  gnnpart stream datasets/cora.edges.gz -k 8 --algo fennel --passes 3\n"
      "  gnnpart stream big.edges -k 32 --algo hdrf -o big.epart.32\n"
      "  gnnpart stream cora.edges.gz -k 8 --train cora.train.gz --batch-size 64\n"
      "Inputs: edge lists (text/gzip, any order; sorted externally under --memory-limit for the\n"
      "vertex partitioners unless --sorted says they are sorted by source with both directions),\n"
      "METIS files, binary edge or adjacency streams (gnnpart generate).");
  cmd->add_option("FILE", args->input, "input graph")->required()->check(CLI::ExistingFile);
  cmd->add_option("-k,--blocks", args->options.k, "number of blocks")->required();
  cmd->add_option("--algo", args->algorithm, "ldg, fennel, buffered, hdrf, dbh, 2ps")
      ->check(CLI::IsMember({"ldg", "fennel", "buffered", "hdrf", "dbh", "2ps"}));
  cmd->add_option("--passes", args->options.passes, "passes (restreaming) for ldg/fennel/buffered (0: buffered 2, ldg/fennel 1)");
  cmd->add_option("-e,--epsilon", args->options.epsilon, "allowed imbalance (0.03)");
  cmd->add_option("--seed,-s", args->options.seed, "random seed");
  cmd->add_option("--objective", args->objective,
                  "cut (neighbours per block) or volume (lambda-1 of column nets)")
      ->check(CLI::IsMember({"cut", "volume"}));
  cmd->add_option("--train", args->options.train_path,
                  "training vertex ids: weigh volume by mini-batch traffic (implies volume)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--batch-size", args->options.minibatch_size, "mini-batch size for --train");
  cmd->add_option("--buffer-batch", args->options.batch_vertices,
                  "buffered: vertices per batch (32768)");
  cmd->add_option("--buffer-size", args->options.buffer_vertices,
                  "buffered: priority buffer capacity (0: 2 x batch)");
  cmd->add_option_function<std::string>(
         "--batch-solver",
         [args](const std::string& name) {
           args->options.batch_solver = name == "local" ? streaming::BatchSolver::kLocal
                                                        : streaming::BatchSolver::kMultilevel;
         },
         "buffered: multilevel (engine, local fallback) or local (Fennel + label propagation)")
      ->check(CLI::IsMember({"multilevel", "local"}));
  cmd->add_option("--high-degree", args->options.high_degree_factor,
                  "buffered: degree above this times the average is placed at once (100)");
  cmd->add_option("--hdrf-lambda", args->options.hdrf_lambda, "HDRF balance weight (1.1)");
  cmd->add_option("--cluster-passes", args->options.clustering_passes,
                  "2ps: streaming clustering passes (1)");
  cmd->add_option("--memory-limit", args->memory_mb, "MiB for the external sort of edge lists");
  cmd->add_option("--temp-dir", args->temp_dir, "directory for temporary files");
  cmd->add_option("--save-adjacency", args->keep_adjacency,
                  "keep the sorted binary adjacency stream of an edge list here");
  cmd->add_option("--format", args->format, "auto, edgelist, metis, binary")
      ->check(CLI::IsMember({"auto", "edgelist", "metis", "binary"}));
  cmd->add_flag("--one-based", args->one_based, "edge list ids start at 1");
  cmd->add_flag("--sorted", args->sorted,
                "vertex partitioners: the text edge list is sorted by source and lists both "
                "directions of every edge; stream it as it is instead of sorting it");
  cmd->add_option("-o,--output", args->output,
                  "output (default: ./BASENAME.part.K, edge partitions ./BASENAME.epart.K)");
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_flag("--no-metrics", args->no_metrics, "skip the metrics pass (vertex partitioners)");
  return [args, &global] { return run_stream(*args, global); };
}

const RegisterCommand kRegister("stream", 15, setup_stream);

} // namespace
} // namespace gnnpart::app
