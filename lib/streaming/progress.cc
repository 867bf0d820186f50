#include "streaming/progress.h"

#include <algorithm>

#include <fmt/core.h>

namespace gnnpart::streaming {

std::string short_count(double value) {
  if (value >= 1e9)
    return fmt::format("{:.2f}G", value / 1e9);
  if (value >= 1e6)
    return fmt::format("{:.1f}M", value / 1e6);
  if (value >= 1e3)
    return fmt::format("{:.1f}k", value / 1e3);
  return fmt::format("{:.0f}", value);
}

void ProgressMeter::begin(std::string label, std::uint64_t total, bool in_bytes) {
  label_ = std::move(label);
  total_ = total;
  in_bytes_ = in_bytes;
  calls_ = 0;
  start_ = last_ = Clock::now();
}

void ProgressMeter::end(std::uint64_t done, std::uint64_t edges) {
  if (out_ == nullptr)
    return;
  maybe_print(done, edges, true);
}

void ProgressMeter::maybe_print(std::uint64_t done, std::uint64_t edges, bool final) {
  const auto now = Clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (!final && since_last < (terminal_ ? 0.25 : 5.0))
    return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(edges) / elapsed : 0.0;
  std::string line = fmt::format("{}: ", label_);
  const char* unit = in_bytes_ ? "B" : " edges";
  if (total_ > 0) {
    const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
    line += fmt::format("{}{} of {}{} ({:.0f}%)", short_count(static_cast<double>(done)), unit,
                        short_count(static_cast<double>(total_)), unit, 100.0 * fraction);
    if (!final && fraction > 0) {
      line += fmt::format(", ETA {:.0f}s", elapsed * (1.0 - fraction) / fraction);
    }
  } else {
    line += fmt::format("{}{}", short_count(static_cast<double>(done)), unit);
  }
  line += fmt::format(", {} edges/s", short_count(rate));
  if (final)
    line += fmt::format(", {:.2f}s", elapsed);
  if (terminal_) {
    fmt::print(out_, "\r{:<78}", line);
    if (final)
      std::fputc('\n', out_);
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

} // namespace gnnpart::streaming
