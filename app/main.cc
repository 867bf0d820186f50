// gnnpart: the command-line front end. Subcommands register themselves (command.h); main only
// parses, dispatches and turns exceptions into one-line messages and exit codes:
// 0 success, 1 bad input or failure while running, 2 usage error (bad flag or parameter).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "command.h"
#include "core/errors.h"
#include "io/signal_cleanup.h"
#include "support.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GNNPART_HAS_ASAN 1
#endif
#endif

namespace gnnpart::app {

std::vector<CommandEntry>& command_registry() {
  static std::vector<CommandEntry> registry;
  return registry;
}

namespace {

constexpr int kExitInput = 1;
constexpr int kExitUsage = 2;

// One line on stderr, whatever the message holds.
int fail(int code, std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fprintf(stderr, "gnnpart: error: %s\n", message.c_str());
  return code;
}

constexpr const char* kExamples = R"(Examples:
  gnnpart partition datasets/cora.edges.gz -k 8
  gnnpart partition graph.edges.gz -k 32 --algo metis --seed 1 -o graph.part.32
  gnnpart partition cora.edges.gz -k 8 --balance-set cora.train.gz --json metrics.json
  gnnpart evaluate cora.edges.gz cora.edges.gz.part.8 --feature-dim 1433 --json
  gnnpart convert graph.edges.gz graph.graph
  gnnpart convert graph.edges.gz graph.hgr --column-net
  gnnpart info graph.edges.gz
Run 'gnnpart COMMAND --help' for the flags of a command.)";

// The command's -t, 0 (all hardware threads) when not given.
int requested_threads(const CLI::App& command) {
  const CLI::Option* threads = command.get_option_no_throw("--threads");
  return threads != nullptr && threads->count() > 0 ? threads->as<int>() : 0;
}

int run(CLI::App& app, int argc, char** argv) {
  app.fallthrough(); // global flags may follow the subcommand
  app.require_subcommand(1);
  app.footer(kExamples);
  app.set_version_flag("--version", std::string("gnnpart ") + GNNPART_VERSION);
  GlobalFlags flags;
  app.add_flag("-q,--quiet", flags.quiet, "print nothing but errors");
  app.add_flag("-v,--verbose", flags.verbosity, "progress and details on stderr (-vv: more)");

  auto& registry = command_registry();
  std::stable_sort(registry.begin(), registry.end(),
                   [](const CommandEntry& a, const CommandEntry& b) { return a.order < b.order; });
  // Only the named command builds its flags: building all of them took 0.44 ms (CPU, median) of
  // a 6 ms run on a small graph. With no command named, all of them are built, for the
  // program's --help.
  const std::string_view named = named_command(argc, argv);
  std::vector<std::string> names;
  for (const CommandEntry& entry : registry)
    names.push_back(entry.name);
  if (const std::string error = unknown_command_error(named, names, "gnnpart"); !error.empty())
    return fail(kExitUsage, error);
  std::vector<std::pair<CLI::App*, CommandRunner>> runners;
  for (const CommandEntry& entry : registry) {
    if (!named.empty() && entry.name != named)
      continue;
    const std::size_t before = app.get_subcommands({}).size();
    CommandRunner runner = entry.setup(app, flags);
    const auto subcommands = app.get_subcommands({});
    if (subcommands.size() > before)
      runners.emplace_back(subcommands.back(), std::move(runner));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e); // --help, --version
    return fail(kExitUsage, parse_error_message(app, e));
  }
  for (auto& [command, runner] : runners) {
    if (!command->parsed())
      continue;
    // -t may exceed the cores (support.h, kMaxThreads): only then does oneTBB need leave to
    // start more threads. Without a global_control it sizes its worker tables for 256 threads
    // instead of 1024 (27 fewer page faults, about 1% of a run on a small graph).
    std::optional<tbb::global_control> allow_threads;
    if (requested_threads(*command) > tbb::this_task_arena::max_concurrency())
      allow_threads.emplace(tbb::global_control::max_allowed_parallelism, kMaxThreads);
    return runner();
  }
  return fail(kExitUsage, "no command given (see --help)");
}

// The command's exit code; exceptions become one-line messages (outputs already removed while
// unwinding).
int run_command(CLI::App& app, int argc, char** argv) {
  try {
    return run(app, argc, argv);
  } catch (const InvalidParameter& e) {
    return fail(kExitUsage, e.what());
  } catch (const Unsupported& e) {
    return fail(kExitUsage, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kExitInput, "out of memory");
  } catch (const std::exception& e) {
    return fail(kExitInput, e.what());
  }
}

// Ends the process once the command is done: its outputs are closed and renamed by then, and
// stdio is flushed here. The destructors of process-wide objects are skipped (oneTBB's and
// tbbmalloc's teardown, the iostreams, CLI11's validators, the progress watcher's idle
// thread): 0.25-0.5 ms of CPU, about 6% of a run on a small graph (docs/graph.md). Sanitizer
// builds exit normally, so that LeakSanitizer still checks the process at exit.
[[noreturn]] void exit_now(int code) {
  std::cout.flush(); // synchronised with stdio unless someone turned that off
  std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__) || defined(GNNPART_HAS_ASAN)
  std::exit(code);
#else
  std::_Exit(code);
#endif
}

} // namespace
} // namespace gnnpart::app

int main(int argc, char** argv) {
  using namespace gnnpart;
  // Killed by SIGINT / SIGTERM / SIGHUP: scratch files (R-MAT buckets, sorted runs) and
  // temporary outputs are removed before the process dies; error exits remove them on unwinding.
  io::install_signal_cleanup();
  // The parser of the command line lives until exit_now ends the process, which never tears it
  // down: destroying `partition`'s flags took 0.1 M instructions after the output was written.
  CLI::App app{"gnnpart: graph and hypergraph partitioning for distributed GNN training",
               "gnnpart"};
  app::exit_now(app::run_command(app, argc, argv));
}
