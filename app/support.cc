#include "support.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/output_file.h"
#include "partition/vertex_weights.h"

namespace gnnpart::app {
namespace {

constexpr auto kHeartbeat = std::chrono::seconds(5);

// The process's resident memory now (/proc/self/statm), 0 where that is unreadable.
std::uint64_t resident_bytes() {
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (file == nullptr)
    return 0;
  unsigned long long pages = 0, resident = 0;
  const int read = std::fscanf(file, "%llu %llu", &pages, &resident);
  std::fclose(file);
  return read == 2 ? resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

std::string format_bytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
}

} // namespace

Logger make_logger(const GlobalFlags& flags) {
  if (flags.quiet)
    return Logger(LogLevel::kQuiet, nullptr);
  const LogLevel level = flags.verbosity >= 2   ? LogLevel::kDebug
                         : flags.verbosity == 1 ? LogLevel::kInfo
                                                : LogLevel::kWarning;
  return Logger(level, stderr);
}

void note(const GlobalFlags& flags, const std::string& text) {
  if (!flags.quiet)
    std::fprintf(stderr, "gnnpart: note: %s\n", text.c_str());
}

void warn(const GlobalFlags& flags, const std::string& text) {
  if (!flags.quiet)
    std::fprintf(stderr, "gnnpart: warning: %s\n", text.c_str());
}

// ---------------------------------------------------------------------------------------------
// The one thread that prints the announcements and heartbeats of every phase. The phases of a
// command come one after another, and a thread per phase cost about 0.1 ms of CPU each to start
// and end (its stack, its malloc arena), a few percent of a run on a small graph (cora: 3
// phases, 0.25-0.5 ms of about 7 ms). Started by the first phase; joined at exit in sanitizer
// builds, left waiting by the others (main's exit_now runs no destructors).
class PhaseWatcher {
public:
  static PhaseWatcher& get() {
    static PhaseWatcher watcher;
    return watcher;
  }
  // The thread is woken only when the innermost phase is due before the moment it waits for:
  // otherwise it finds the change when that moment comes. A run on a small graph then wakes it
  // at most once (each wake-up is two context switches).
  void watch(Progress* phase) {
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      phases_.push_back(phase);
      ++changes_;
      if (!thread_.joinable())
        thread_ = std::thread([this] { run(); });
      wake = phase->next_report_ < waiting_until_;
    }
    if (wake)
      cv_.notify_all();
  }
  // Once this returns, the thread no longer touches the phase.
  void unwatch(Progress* phase) {
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      std::erase(phases_, phase);
      ++changes_;
      wake = !phases_.empty() && phases_.back()->next_report_ < waiting_until_;
    }
    if (wake)
      cv_.notify_all();
  }
  ~PhaseWatcher() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable())
      thread_.join();
  }

private:
  PhaseWatcher() = default;
  // Reports the innermost phase when it is due. After any change to the phases it starts over
  // from the innermost one; the change counter (not the phase's address, which a new phase may
  // reuse) tells it that the phase it waited for may be gone.
  void run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      if (phases_.empty()) {
        waiting_until_ = kNever;
        cv_.wait(lock, [this] { return stop_ || !phases_.empty(); });
        continue;
      }
      Progress* phase = phases_.back();
      const std::uint64_t seen = changes_;
      // A copy: wait_until reads its deadline again after waking, when an unwatched phase may
      // already be gone (its owner destroys it once unwatch has returned).
      const std::chrono::steady_clock::time_point due = phase->next_report_;
      waiting_until_ = due;
      const bool changed = cv_.wait_until(lock, due, [&] { return stop_ || changes_ != seen; });
      if (changed)
        continue;
      if (phase->announced_)
        phase->heartbeat(); // a heartbeat while the phase runs, so it never goes silent long
      else
        phase->announce();
      phase->next_report_ = std::chrono::steady_clock::now() + kHeartbeat;
    }
  }

  static constexpr std::chrono::steady_clock::time_point kNever =
      std::chrono::steady_clock::time_point::max();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Progress*> phases_;
  std::uint64_t changes_ = 0;                                    // watch and unwatch calls
  std::chrono::steady_clock::time_point waiting_until_ = kNever; // the thread's wait
  bool stop_ = false;
  std::thread thread_;
};

Progress::Progress(const GlobalFlags& flags, std::string what)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  if (flags.quiet)
    return; // nothing to announce, ever
  next_report_ = start_ + std::chrono::seconds(1);
  if (flags.verbosity >= 1) {
    announce();
    next_report_ = start_ + kHeartbeat; // -v: the heartbeat starts at once
  }
  watched_ = true;
  PhaseWatcher::get().watch(this);
}

void Progress::heartbeat() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string step = status_.get();
  std::fprintf(stderr, "gnnpart: %s: %s so far, %s resident%s%s\n", what_.c_str(),
               format_seconds(seconds).c_str(), format_bytes(resident_bytes()).c_str(),
               step.empty() ? "" : ", now at ", step.c_str());
  std::fflush(stderr);
}

void Progress::announce() {
  announced_ = true;
  std::fprintf(stderr, "gnnpart: %s ...\n", what_.c_str());
  std::fflush(stderr);
}

double Progress::finish() {
  if (watched_) {
    PhaseWatcher::get().unwatch(this);
    watched_ = false;
  }
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (announced_) {
    std::fprintf(stderr, "gnnpart: %s: done in %s\n", what_.c_str(),
                 format_seconds(seconds_).c_str());
    announced_ = false;
  }
  return seconds_;
}

Progress::~Progress() {
  if (watched_)
    PhaseWatcher::get().unwatch(this);
}

// ---------------------------------------------------------------------------------------------
void add_input_flags(CLI::App& command, InputFlags& flags, bool with_threads) {
  command
      .add_option("--format", flags.format,
                  "input format: edgelist, metis, mtx, binary (.gnnp), hmetis, stream (generate's "
                  ".bin/.adj) (default: from the extension)")
      ->check(CLI::IsMember({"edgelist", "metis", "mtx", "binary", "hmetis", "stream"}));
  command.add_flag("--one-based", flags.one_based, "edge list ids start at 1");
  command.add_flag("--relabel", flags.relabel,
                   "edge list ids are arbitrary labels; compact them to 0..n-1");
  command.add_option("--label-map", flags.label_map,
                     "with --relabel: write 'new_id original_label' lines here");
  if (with_threads)
    command.add_option("-t,--threads", flags.threads, "threads (0: all hardware threads)")
        ->capture_default_str()
        ->check(CLI::Range(0, kMaxThreads));
}

io::ReadOptions read_options(const InputFlags& flags) {
  if (!flags.label_map.empty() && !flags.relabel)
    throw InvalidParameter("--label-map needs --relabel");
  io::ReadOptions options;
  if (!flags.format.empty())
    options.format = io::parse_format(flags.format);
  options.one_based = flags.one_based;
  options.relabel = flags.relabel;
  options.label_map_path = flags.label_map;
  options.threads = flags.threads; // the command's arena size: no second arena
  return options;
}

CsrGraph read_graph_with_progress(const std::string& path, const InputFlags& flags,
                                  const GlobalFlags& global) {
  Progress progress(global, fmt::format("reading {}", path));
  CsrGraph graph = io::read_graph(path, read_options(flags));
  progress.finish();
  return graph;
}

void add_weight_flags(CLI::App& command, WeightFlags& flags) {
  command.add_option("--vertex-weights", flags.vertex_weights,
                     "base balance constraint: unit, degree (deg(u)), or a FILE with one integer "
                     "per vertex (default: the input's own vertex weights, else unit)");
  command.add_option("--balance-set", flags.balance_sets,
                     "FILE of vertex ids (one per line); adds a constraint so each block gets "
                     "its share of them (repeatable)");
}

void apply_weight_flags(CsrGraph& graph, const WeightFlags& flags) {
  const bool keep_own = flags.vertex_weights.empty();
  if (keep_own && flags.balance_sets.empty())
    return; // the input's weights, or unit
  BaseVertexWeight base =
      keep_own ? BaseVertexWeight::kUnit : parse_base_vertex_weight(flags.vertex_weights);
  std::vector<std::int64_t> values;
  if (keep_own && graph.has_vertex_weights()) {
    if (graph.ncon() != 1)
      throw Unsupported("--balance-set with an input of several vertex-weight constraints; pick "
                        "the base constraint with --vertex-weights");
    const auto own = graph.vertex_weights();
    values.assign(own.begin(), own.end());
    base = BaseVertexWeight::kValues;
  } else if (base == BaseVertexWeight::kValues) {
    values = io::read_vertex_values(flags.vertex_weights, graph.num_nodes());
    for (std::size_t u = 0; u < values.size(); ++u) {
      if (values[u] < 0)
        throw InputError(flags.vertex_weights, 0,
                         fmt::format("vertex {} has negative weight {}", u, values[u]));
    }
  }
  std::vector<std::vector<NodeID>> sets;
  for (const std::string& path : flags.balance_sets) {
    sets.push_back(io::read_vertex_set(path, graph.num_nodes()));
    if (sets.back().empty())
      throw InputError(path, 0, "balance set has no vertices");
  }
  set_balance_weights(graph, base, values, sets);
}

// ---------------------------------------------------------------------------------------------
namespace {

// A number as every JsonObject value writes it: doubles with six decimals.
std::string json_number(std::int64_t value) {
  return std::to_string(value);
}
std::string json_number(double value) {
  return fmt::format("{:.6f}", value);
}

template <typename T> std::string json_array(const std::vector<T>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0)
      text += ", ";
    text += json_number(values[i]);
  }
  return text + "]";
}

} // namespace

JsonObject& JsonObject::add_raw(const std::string& k, const std::string& json) {
  key(k);
  text_ += json;
  return *this;
}

void JsonObject::key(const std::string& key) {
  if (text_.size() > 1)
    text_ += ", ";
  text_ += '"';
  text_ += key;
  text_ += "\": ";
}

JsonObject& JsonObject::add(const std::string& k, std::uint64_t value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonObject& JsonObject::add(const std::string& k, std::int64_t value) {
  return add_raw(k, json_number(value));
}

JsonObject& JsonObject::add(const std::string& k, double value) {
  return add_raw(k, json_number(value));
}

JsonObject& JsonObject::add(const std::string& k, const std::string& value) {
  key(k);
  text_ += '"';
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      text_ += '\\';
      text_ += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      text_ += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      text_ += c;
    }
  }
  text_ += '"';
  return *this;
}

JsonObject& JsonObject::add(const std::string& k, const std::vector<double>& values) {
  return add_raw(k, json_array(values));
}

JsonObject& JsonObject::add(const std::string& k, const std::vector<std::int64_t>& values) {
  return add_raw(k, json_array(values));
}

void add_metrics(JsonObject& json, const GraphMetrics& m, std::uint64_t feature_dim) {
  json.add("n", std::uint64_t{m.n})
      .add("m", std::uint64_t{m.m})
      .add("k", std::uint64_t{m.k})
      .add("edge_cut", std::uint64_t{m.edge_cut})
      .add("weighted_edge_cut", std::int64_t{m.weighted_edge_cut})
      .add("comm_volume", std::int64_t{m.comm_volume})
      .add("max_send_volume", std::int64_t{m.max_send_volume})
      .add("max_recv_volume", std::int64_t{m.max_recv_volume})
      .add("max_block_volume", std::int64_t{m.max_block_volume})
      .add("num_comm_pairs", std::uint64_t{m.num_comm_pairs})
      .add("boundary_vertices", std::uint64_t{m.boundary_vertices})
      .add("halo_ratio", m.halo_ratio)
      .add("imbalance_vertices", m.imbalance_vertices)
      .add("imbalance", m.imbalance)
      .add("empty_blocks", std::uint64_t{m.empty_blocks})
      .add("block_sizes", m.block_sizes);
  if (feature_dim > 0) {
    json.add("feature_dim", feature_dim)
        .add("bytes_per_layer",
             static_cast<std::uint64_t>(m.comm_volume) * feature_dim * std::uint64_t{4});
  }
}

std::string metrics_text(const GraphMetrics& m, std::uint64_t feature_dim) {
  std::string out;
  const double cut_share = m.m > 0 ? 100.0 * static_cast<double>(m.edge_cut) / m.m : 0.0;
  out += fmt::format("  edge cut        {} ({:.2f}% of {} edges)\n", m.edge_cut, cut_share, m.m);
  out += fmt::format("  comm volume     {} (boundary vertices {}, halo ratio {:.4f})\n",
                     m.comm_volume, m.boundary_vertices, m.halo_ratio);
  out += fmt::format("  max send/recv   {} / {} rows per layer, {} communicating pairs\n",
                     m.max_send_volume, m.max_recv_volume, m.num_comm_pairs);
  out += fmt::format("  max block vol   {} rows per layer (largest send + recv of one block)\n",
                     m.max_block_volume);
  std::string per_constraint;
  if (m.imbalance.size() > 1 ||
      (m.imbalance.size() == 1 && m.imbalance[0] != m.imbalance_vertices)) {
    per_constraint = " by vertices (by weight, per constraint:";
    for (const double x : m.imbalance)
      per_constraint += fmt::format(" {:.4f}", x);
    per_constraint += ")";
  }
  out += fmt::format("  imbalance       {:.4f}{}\n", m.imbalance_vertices, per_constraint);
  out += fmt::format("  empty blocks    {}\n", m.empty_blocks);
  if (feature_dim > 0) {
    const double bytes = static_cast<double>(m.comm_volume) * feature_dim * 4.0;
    out += fmt::format("  bytes per layer {} ({:.2f} MiB at feature dim {}, float32)\n",
                       static_cast<std::uint64_t>(bytes), bytes / (1024.0 * 1024.0), feature_dim);
  }
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  io::OutputFile out(path);
  out.write(text);
  out.commit();
}

std::string format_seconds(double seconds) {
  return seconds < 10 ? fmt::format("{:.3f} s", seconds) : fmt::format("{:.1f} s", seconds);
}

// Declared in cmd_layout.h; here so that gnnpart-mpi, which links support.cc, shares it.
std::string graph_name_of(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > 3 && name.ends_with(".gz"))
    name.resize(name.size() - 3);
  const auto dot = name.find('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string_view named_command(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "--version" || arg == "--")
      return {};
    if (!arg.starts_with('-'))
      return arg;
  }
  return {};
}

std::string unknown_command_error(std::string_view named, const std::vector<std::string>& commands,
                                  std::string_view program) {
  if (named.empty() || std::find(commands.begin(), commands.end(), named) != commands.end())
    return {};
  std::string names;
  for (const std::string& command : commands)
    names += (names.empty() ? "" : ", ") + command;
  return fmt::format("unknown command '{}' (commands: {}; see {} --help)", named, names, program);
}

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error) {
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    std::vector<std::string> unknown = app.remaining(true); // with the subcommands'
    if (!unknown.empty())
      return CLI::ExtrasError(unknown).what();
  }
  return error.what();
}

} // namespace gnnpart::app
