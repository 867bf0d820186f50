// gnnpart-mpi: the distributed partitioner. `mpirun -np P gnnpart-mpi partition GRAPH -k K ...`
// takes the flags and writes the outputs of `gnnpart partition`, while every rank reads, holds
// and writes only its slice of the graph (lib/distributed). Errors: one line from one rank,
// every rank exits non-zero (1 bad input or failure, 2 usage).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <malloc.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <tbb/global_control.h>

#include "../app/cmd_layout.h"
#include "../app/support.h"
#include "core/errors.h"
#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/input.h"
#include "distributed/layout_writer.h"
#include "distributed/memory_trace.h"
#include "distributed/metrics.h"
#include "distributed/multilevel.h"
#include "distributed/partition_writer.h"
#include "distributed/spilled_adjacency.h"
#include "io/graph_io.h"

namespace gnnpart::mpi_app {

namespace {

using namespace gnnpart::distributed;
using app::JsonObject;

constexpr int kExitInput = 1;
constexpr int kExitUsage = 2;

struct Args {
  std::string graph;
  std::string output;
  std::string layout;
  std::string json;
  std::string objective = "cut";
  app::InputFlags input;
  PartitionOptions options;
  NodeID coarse_per_block = DistContext{}.coarse_per_block;
  NodeID coarse_min = DistContext{}.coarse_min;
  double initial_epsilon = DistContext{}.initial_epsilon;
  std::uint64_t chunk_items = DistContext{}.chunk_items;
  int jet_rounds = DistContext{}.jet_rounds;
  double gather_fraction = DistContext{}.gather_fraction;
  bool keep_levels = DistContext{}.keep_levels;
  std::string temp_dir;
  bool quiet = false;
  bool memory_trace = false;
  bool log_levels = false;
};

std::int64_t peak_rss_kb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The memory trace of every rank as JSON on rank 0: [{"phase": NAME, "peak_kb": [per rank],
// "end_kb": [...], "end_file_kb": [...], "end_shmem_kb": [...], "wall_ms": [...],
// "cpu_ms": [...]}, ...] (every rank marks the same phases: they are collective).
std::string gather_memory_trace(const Comm& comm) {
  const std::vector<MemoryPhase>& phases = memory_phases();
  std::vector<std::int64_t> mine;
  constexpr std::size_t kFields = 6;
  for (const MemoryPhase& phase : phases)
    mine.insert(mine.end(), {phase.peak_kb, phase.end_kb, phase.end_file_kb, phase.end_shmem_kb,
                             phase.wall_ms, phase.cpu_ms});
  std::vector<std::int64_t> all(mine.size() * static_cast<std::size_t>(comm.size));
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, all.data(),
             static_cast<int>(mine.size()), MPI_INT64_T, 0, comm.comm);
  std::string json = "[";
  const char* names[kFields] = {"peak_kb",      "end_kb",  "end_file_kb",
                                "end_shmem_kb", "wall_ms", "cpu_ms"};
  for (std::size_t i = 0; i < phases.size(); ++i) {
    json += fmt::format("{}{{\"phase\": \"{}\"", i == 0 ? "" : ", ", phases[i].name);
    for (std::size_t f = 0; f < kFields; ++f) {
      std::string values;
      for (std::size_t r = 0; r < static_cast<std::size_t>(comm.size); ++r)
        values += (r == 0 ? "" : ", ") + std::to_string(all[r * mine.size() + kFields * i + f]);
      json += fmt::format(", \"{}\": [{}]", names[f], values);
    }
    json += "}";
  }
  return json + "]";
}

int run_partition(const Comm& world, const Args& args) {
  Comm comm = world;
  comm.round_items = args.chunk_items;
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_since = [](auto t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  DistContext ctx;
  ctx.partition = args.options;
  ctx.partition.objective = args.objective == "volume" ? Objective::kVolume : Objective::kCut;
  ctx.coarse_per_block = args.coarse_per_block;
  ctx.coarse_min = args.coarse_min;
  ctx.initial_epsilon = args.initial_epsilon;
  ctx.chunk_items = args.chunk_items;
  ctx.jet_rounds = args.jet_rounds;
  ctx.gather_fraction = args.gather_fraction;
  ctx.keep_levels = args.keep_levels;
  ctx.temp_dir = args.temp_dir;
  ctx.log_levels = args.log_levels;
  const std::string output =
      args.output.empty() ? io::default_partition_path(args.graph, ctx.partition.k) : args.output;

  if (args.memory_trace)
    enable_memory_trace();
  DistGraph graph =
      read_distributed_graph(comm, args.graph, app::read_options(args.input), ctx.chunk_items);
  mark_memory_phase("input");
  const double read_seconds = seconds_since(start);
  check_options(ctx.partition, static_cast<NodeID>(graph.global_n));
  const auto partition_start = std::chrono::steady_clock::now();
  const auto [blocks, balance_moves, jet_cut_gain, volume_gain, gathered_levels] =
      partition_distributed(comm, graph, ctx);
  const double partition_seconds = seconds_since(partition_start);
  mark_memory_phase("uncoarsen");
  const GraphMetrics metrics = compute_distributed_metrics(comm, graph, blocks, ctx.partition.k);
  mark_memory_phase("metrics");
  write_distributed_partition(comm, graph, blocks, output);
  mark_memory_phase("output");
  if (!args.layout.empty()) {
    run_phase(comm, [&] { restore_adjacency(graph); }); // the layout reads it in memory
    write_distributed_layout(
        comm, graph, blocks, ctx.partition.k, args.layout,
        {app::graph_name_of(args.graph), "graph", std::string(to_string(ctx.partition.objective))});
  }
  mark_memory_phase("layout");
  const double total_seconds = seconds_since(start);

  // With the trace on the kernel's peak was reset at every mark: the largest phase is the peak.
  const std::int64_t rss = std::max(peak_rss_kb(), traced_peak_kb());
  const std::string trace = gather_memory_trace(comm);
  std::vector<std::int64_t> rss_per_rank(static_cast<std::size_t>(comm.size));
  MPI_Gather(&rss, 1, MPI_INT64_T, rss_per_rank.data(), 1, MPI_INT64_T, 0, comm.comm);
  const std::int64_t entries = static_cast<std::int64_t>(graph.local_entries());
  std::vector<std::int64_t> entries_per_rank(static_cast<std::size_t>(comm.size));
  MPI_Gather(&entries, 1, MPI_INT64_T, entries_per_rank.data(), 1, MPI_INT64_T, 0, comm.comm);
  if (comm.rank != 0)
    return 0;
  if (!args.json.empty()) {
    JsonObject json;
    json.add("graph", args.graph)
        .add("partition", output)
        .add("model", std::string("graph"))
        .add("algorithm", std::string("distributed"))
        .add("objective", std::string(to_string(ctx.partition.objective)))
        .add("epsilon", ctx.partition.epsilon)
        .add("seed", std::uint64_t{ctx.partition.seed})
        .add("threads", static_cast<std::uint64_t>(ctx.partition.threads))
        .add("ranks", static_cast<std::uint64_t>(comm.size))
        .add("ncon", std::uint64_t{1});
    app::add_metrics(json, metrics, 0);
    json.add("peak_rss_kb_per_rank", rss_per_rank)
        .add("local_entries_per_rank", entries_per_rank)
        .add("balance_moves", balance_moves)
        .add("jet_cut_gain", static_cast<std::int64_t>(jet_cut_gain))
        .add("volume_refinement_gain", volume_gain)
        .add("gathered_levels", gathered_levels)
        .add("time_read_s", read_seconds)
        .add("time_partition_s", partition_seconds)
        .add("time_total_s", total_seconds);
    if (args.memory_trace)
      json.add_raw("memory_trace", trace);
    app::write_text_file(args.json, json.str() + "\n");
  }
  if (!args.quiet) {
    std::string text =
        fmt::format("gnnpart-mpi: {} (n = {}, m = {}) -> {} blocks on {} ranks in {} (total {})\n",
                    args.graph, metrics.n, metrics.m, ctx.partition.k, comm.size,
                    app::format_seconds(partition_seconds), app::format_seconds(total_seconds));
    text += app::metrics_text(metrics, 0);
    text += fmt::format("  written to      {}\n", output);
    if (!args.layout.empty())
      text += fmt::format("  layout in       {}\n", args.layout);
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

int fail(int code, std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fprintf(stderr, "gnnpart: error: %s\n", message.c_str());
  return code;
}

int run(const Comm& comm, int argc, char** argv) {
  CLI::App app{"gnnpart-mpi: distributed graph partitioning (run under mpirun)", "gnnpart-mpi"};
  app.fallthrough(); // global flags may follow the subcommand
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gnnpart-mpi ") + GNNPART_VERSION);
  Args args;
  app.add_flag("-q,--quiet", args.quiet, "print nothing but errors");
  CLI::App* cmd = app.add_subcommand("partition", "partition a graph into k blocks");
  cmd->footer(R"(Examples:
  mpirun -np 4 gnnpart-mpi partition graph.edges -k 32 -o graph.part.32
  mpirun -np 4 gnnpart-mpi partition big.bin -k 128 --seed 1 --json metrics.json)");
  PartitionOptions& o = args.options;
  cmd->add_option("GRAPH", args.graph,
                  "edge list or METIS file (plain files are split among the ranks; gzip is "
                  "inflated by rank 0), or a binary edge stream (gnnpart generate -o FILE.bin)")
      ->required();
  cmd->add_option("-k,--k", o.k, "number of blocks")->required()->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("-e,--epsilon", o.epsilon, "allowed imbalance")->capture_default_str();
  cmd->add_option("--seed", o.seed, "random seed")->capture_default_str();
  cmd->add_option("--objective", args.objective, "cut or volume")
      ->check(CLI::IsMember({"cut", "volume"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args.output, "partition file (default: GRAPH.part.K)");
  cmd->add_option("--layout", args.layout,
                  "also write the trainer layout of docs/layout.md here (by the ranks)");
  cmd->add_option("--json", args.json, "also write the metrics as JSON to this file");
  cmd->add_option("--coarse-per-block", args.coarse_per_block,
                  "coarsen until at most max(C * k, --coarse-min) vertices remain, then "
                  "partition them on every rank with the shared-memory engine")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 20));
  cmd->add_option("--coarse-min", args.coarse_min, "see --coarse-per-block")->capture_default_str();
  cmd->add_option("--initial-epsilon", args.initial_epsilon,
                  "allowed imbalance of the coarsest partition (default: -e); a looser one "
                  "leaves work to the distributed refinement and balancer")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--chunk-items", args.chunk_items,
                  "items per chunk of the input and contraction exchanges (bounded buffers; "
                  "the result does not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 26));
  cmd->add_flag("--log-levels", args.log_levels,
                "print every level's size and the cut after each refinement stage (stderr)");
  cmd->add_flag("--memory-trace", args.memory_trace,
                "measure the peak RSS of every phase on every rank (JSON key memory_trace; "
                "resets the kernel's peak at each phase end, so time -v sees only the last)");
  cmd->add_option("--jet-rounds", args.jet_rounds,
                  "iterations of the Jet refinement per level after label propagation (0: off)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--gather-fraction", args.gather_fraction,
                  "coarse levels with at most this fraction of a rank's share of the input's "
                  "entries are copied to every rank and refined by the shared-memory engine "
                  "(0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_flag("--keep-levels", args.keep_levels,
                "keep the coarse levels in memory during the initial partitioning instead of "
                "writing them to --temp-dir and reading them back, and the finest graph in "
                "memory throughout (faster, more memory; the same result)");
  cmd->add_option("--temp-dir", args.temp_dir,
                  "directory for the finest graph's adjacency until it is partitioned, its "
                  "offsets and ghost ids while the coarser levels are worked on (per rank 4 "
                  "bytes per local entry, 8 per local vertex and 4 per ghost), and the coarse "
                  "levels during the initial partitioning (8 bytes per coarse entry; default: "
                  "$TMPDIR or /tmp)");
  app::add_input_flags(*cmd, args.input, true);
  cmd->get_option("--threads")->description("threads per rank for the shared-memory engine");
  if (const std::string error =
          app::unknown_command_error(app::named_command(argc, argv), {"partition"}, "gnnpart-mpi");
      !error.empty())
    return comm.rank == 0 ? fail(kExitUsage, error) : kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return comm.rank == 0 ? app.exit(e) : 0;
    return comm.rank == 0 ? fail(kExitUsage, app::parse_error_message(app, e)) : kExitUsage;
  }
  o.threads = args.input.threads;
  if (o.threads <= 0)
    o.threads = 1;
  // -t may exceed the cores (app/support.h, kMaxThreads).
  const tbb::global_control allow_threads(tbb::global_control::max_allowed_parallelism,
                                          app::kMaxThreads);
  return run_partition(comm, args);
}

} // namespace

} // namespace gnnpart::mpi_app

int main(int argc, char** argv) {
  using namespace gnnpart;
  // Buffers of 256 KiB and more come straight from mmap and go back to the system when freed:
  // the phases free their large arrays before the next ones grow, and glibc's default (a
  // threshold that rises to 32 MiB after the first such free) would keep them in the heap.
  mallopt(M_MMAP_THRESHOLD, 256 << 10);
  MPI_Init(&argc, &argv);
  const distributed::Comm comm = distributed::Comm::world();
  int code = 0;
  // Errors agreed on by all ranks are printed by the rank that holds them; errors every rank
  // raised together (options, balance) by rank 0 only.
  const auto report = [&](int exit_code, const std::string& message) {
    if (distributed::reported_here() || comm.rank == 0)
      mpi_app::fail(exit_code, message);
    return exit_code;
  };
  try {
    code = mpi_app::run(comm, argc, argv);
  } catch (const distributed::PeerFailure&) {
    code = mpi_app::kExitInput;
  } catch (const InvalidParameter& e) {
    code = report(mpi_app::kExitUsage, e.what());
  } catch (const SystemError& e) {
    if (!distributed::reported_here()) {
      // Raised outside a phase that agrees on failures (e.g. a scratch file that cannot be read
      // back in the middle of a contraction): the other ranks may wait in a collective for this
      // one, so end them all rather than leave them hanging.
      mpi_app::fail(mpi_app::kExitInput, e.what());
      MPI_Abort(comm.comm, mpi_app::kExitInput);
    }
    code = report(mpi_app::kExitInput, e.what());
  } catch (const std::bad_alloc&) {
    code = report(mpi_app::kExitInput, "out of memory");
  } catch (const std::exception& e) {
    code = report(mpi_app::kExitInput, e.what());
  }
  MPI_Finalize();
  return code;
}
