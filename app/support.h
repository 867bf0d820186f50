#pragma once
// Pieces the subcommands share: input flags, vertex-weight flags, progress on stderr, a flat
// JSON writer, and the text/JSON renderings of partition metrics.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "command.h"
#include "core/graph.h"
#include "core/logging.h"
#include "core/metrics.h"
#include "core/progress_status.h"
#include "gnnpart/gnnpart_defaults.h"
#include "io/graph_io.h"

namespace gnnpart::app {

// Library logger for the run: warnings by default, info with -v, debug with -vv, none with
// --quiet; always on stderr.
Logger make_logger(const GlobalFlags& flags);

// One line on stderr, "gnnpart: note: ..." / "gnnpart: warning: ...", unless --quiet: said when
// a default decided something the user should know about.
void note(const GlobalFlags& flags, const std::string& text);
void warn(const GlobalFlags& flags, const std::string& text);

class PhaseWatcher;

// Progress of one long phase on stderr: announced at once with -v, or once it has run for
// about a second otherwise, then a line every 5 s with the elapsed time and resident memory;
// silent with --quiet. finish() (or the destructor) ends it. One thread of the process watches
// every phase (support.cc, PhaseWatcher); a phase started inside another is the one watched
// until it ends.
class Progress {
public:
  Progress(const GlobalFlags& flags, std::string what);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Seconds since the start; prints "done" when the phase was announced.
  double finish();
  // Where the run reports its current step (PartitionOptions::progress); the heartbeat prints it.
  ProgressStatus* status() { return &status_; }

private:
  friend class PhaseWatcher;
  void announce();
  void heartbeat(); // elapsed time and resident memory, every few seconds
  // When the watcher prints next: the announcement a second after the start, then a heartbeat
  // every 5 s (guarded by the watcher's mutex once watched).
  std::chrono::steady_clock::time_point next_report_;

  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool watched_ = false;
  bool announced_ = false;
  double seconds_ = 0;
  ProgressStatus status_;
};

// --format, --one-based, --relabel, --label-map, -t/--threads.
struct InputFlags {
  std::string format;
  bool one_based = false;
  bool relabel = false;
  std::string label_map;
  int threads = GNNPART_DEFAULT_THREADS; // <= 0: all hardware threads
};
// The largest -t. The mains let oneTBB start this many threads (tbb::global_control): -t may
// ask for more threads than the machine has, since a partition depends on the thread count
// and a user may reproduce one made on a larger machine; without it oneTBB runs fewer and
// prints a warning on stderr.
inline constexpr int kMaxThreads = 1024;
void add_input_flags(CLI::App& command, InputFlags& flags, bool with_threads = true);

// The command the arguments name: the first one that is not a flag (the mains' global flags
// take no value, so only flags can come before it). Empty when there is none, or when a flag
// before it asks for the whole program's help or version.
std::string_view named_command(int argc, char** argv);
// "unknown command 'X' (commands: A, B; see PROGRAM --help)" when named is not empty and not
// one of commands (a typo where the command goes, which CLI11 would report as "A subcommand is
// required"); empty otherwise.
std::string unknown_command_error(std::string_view named, const std::vector<std::string>& commands,
                                  std::string_view program);
// The one-line message of a failed parse: CLI11 checks required arguments before unknown ones,
// so when both are wrong the unknown flag (the typo, and the cause) is named instead.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error);
io::ReadOptions read_options(const InputFlags& flags);
// Reads the graph with a progress line.
CsrGraph read_graph_with_progress(const std::string& path, const InputFlags& flags,
                                  const GlobalFlags& global);

// --vertex-weights unit|degree|FILE and --balance-set FILE (repeatable). Without
// --vertex-weights the input's own vertex weights (METIS, binary) are the base constraint.
struct WeightFlags {
  std::string vertex_weights;
  std::vector<std::string> balance_sets;
};
void add_weight_flags(CLI::App& command, WeightFlags& flags);
// Reads the files named by the flags and installs the weight matrix in the graph.
void apply_weight_flags(CsrGraph& graph, const WeightFlags& flags);

// A flat JSON object: {"key": value, ...}. Doubles with 6 decimals, as evalpart prints them.
class JsonObject {
public:
  JsonObject& add(const std::string& key, std::uint64_t value);
  JsonObject& add(const std::string& key, std::int64_t value);
  JsonObject& add(const std::string& key, double value);
  JsonObject& add(const std::string& key, const std::string& value);
  JsonObject& add(const std::string& key, const std::vector<double>& values);
  JsonObject& add(const std::string& key, const std::vector<std::int64_t>& values);
  // A value that is already JSON text.
  JsonObject& add_raw(const std::string& key, const std::string& json);
  std::string str() const { return text_ + "}"; }

private:
  void key(const std::string& key);
  std::string text_ = "{";
};

// The figures evalpart computes, under its key names, plus ours (weighted cut, halo ratio,
// imbalance per constraint, and bytes per layer when feature_dim > 0).
void add_metrics(JsonObject& json, const GraphMetrics& metrics, std::uint64_t feature_dim);
// Human-readable summary, several indented lines.
std::string metrics_text(const GraphMetrics& metrics, std::uint64_t feature_dim);

// Writes text to path via a temporary file and a rename.
void write_text_file(const std::string& path, const std::string& text);

std::string format_seconds(double seconds);

} // namespace gnnpart::app
