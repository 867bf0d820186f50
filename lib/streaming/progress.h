#pragma once
// A progress line for each pass over a stream: units done of total (edges, or bytes when the
// edge count is unknown), edges/s and ETA. Rate-limited to a few updates per second; silent
// when constructed with a null FILE*. On a terminal the line is rewritten in place ('\r'),
// otherwise a plain line is printed every few seconds.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gnnpart::streaming {

class ProgressMeter {
public:
  ProgressMeter() = default;
  ProgressMeter(std::FILE* out, bool terminal) : out_(out), terminal_(terminal) {}

  // Starts a pass: total units (0: unknown), counted in bytes or edges.
  void begin(std::string label, std::uint64_t total, bool in_bytes);
  // done: units of this pass; edges: edges (or adjacency entries) processed in this pass.
  void update(std::uint64_t done, std::uint64_t edges) {
    if (out_ == nullptr)
      return;
    if (++calls_ % 16 != 0)
      return;
    maybe_print(done, edges, false);
  }
  // Ends the pass with a final line.
  void end(std::uint64_t done, std::uint64_t edges);
  bool enabled() const { return out_ != nullptr; }

private:
  using Clock = std::chrono::steady_clock;
  void maybe_print(std::uint64_t done, std::uint64_t edges, bool final);

  std::FILE* out_ = nullptr;
  bool terminal_ = false;
  std::string label_;
  std::uint64_t total_ = 0;
  bool in_bytes_ = false;
  std::uint64_t calls_ = 0;
  Clock::time_point start_{};
  Clock::time_point last_{};
};

// "12.3M" style short numbers.
std::string short_count(double value);

} // namespace gnnpart::streaming
