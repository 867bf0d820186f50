#pragma once
// A tree of named phase timers owned by the run (no globals). Phases nest: start("a") inside
// start("b") makes "a" a child of "b"; starting a phase again under the same parent adds to its
// time and count. Not thread safe: time phases from the thread that orchestrates the run.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/logging.h"
#include "core/progress_status.h"

namespace gnnpart {

class Timer {
public:
  using Clock = std::chrono::steady_clock;

  // Stops its phase when it goes out of scope.
  class Scope {
  public:
    explicit Scope(Timer& timer) : timer_(&timer) {}
    Scope(Scope&& other) noexcept : timer_(other.timer_) { other.timer_ = nullptr; }
    Scope& operator=(Scope&&) = delete;
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() {
      if (timer_ != nullptr)
        timer_->stop();
    }

  private:
    Timer* timer_;
  };

  Timer();

  void start(std::string_view name);
  // Stops the innermost running phase; throws InvalidParameter if none is running.
  void stop();
  [[nodiscard]] Scope scoped(std::string_view name) {
    start(name);
    return Scope(*this);
  }

  // Every start and stop, and every detail, also sets `status` to the running phase's path
  // ("partition/uncoarsen"), so that another thread can report it; null stops that.
  void report_to(ProgressStatus* status) { status_ = status; }
  // What the running phase is at ("level 3 of 9, 120411 vertices"), for the status only.
  void detail(std::string_view text);

  // Seconds accumulated by the phase at a path such as "partition/coarsen" (0 if unknown).
  double seconds(std::string_view path) const;
  // How often that phase was started.
  std::uint64_t count(std::string_view path) const;
  // Depth of the running phases (0 when idle).
  int depth() const;

  // Indented tree, one phase per line: "  name: 1.234 s" (and " (xN)" when started N > 1 times).
  std::string to_string() const;
  void print(std::FILE* out) const;

private:
  struct Node {
    std::string name;
    int parent = -1;
    std::vector<int> children;
    double seconds = 0;
    std::uint64_t count = 0;
    Clock::time_point started;
  };
  int find(std::string_view path) const;
  void append(std::string& out, int node, int depth) const;

  std::string running_path() const;
  void report(std::string_view detail = {});

  std::vector<Node> nodes_; // nodes_[0] is the unnamed root
  int current_ = 0;
  ProgressStatus* status_ = nullptr;
};

// The phase tree on the logger's info level (-v), under a heading.
void log_phases(const Logger& logger, const Timer& timer);

// A phase of `timer` for the rest of the scope, or nothing when timer is null (the steps of
// nested runs, which run in parallel).
inline std::optional<Timer::Scope> scoped_phase(Timer* timer, std::string_view name) {
  if (timer == nullptr)
    return std::nullopt;
  return timer->scoped(name);
}

// "level I of N, V vertices" as the running phase's detail, when there is a timer.
void report_level(Timer* timer, std::size_t level, std::size_t levels, std::uint64_t vertices);

} // namespace gnnpart
