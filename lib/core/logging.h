#pragma once
// Leveled logging through fmt. The library is quiet unless the run's Logger says otherwise;
// the CLI turns on progress (info) on stderr.
#include <cstdio>
#include <utility>

#include <fmt/core.h>

namespace gnnpart {

enum class LogLevel { kQuiet = 0, kError = 1, kWarning = 2, kInfo = 3, kDebug = 4 };

class Logger {
 public:
  Logger() = default;
  Logger(LogLevel level, std::FILE* out) : level_(level), out_(out) {}
  bool enabled(LogLevel level) const { return out_ != nullptr && level <= level_; }
  LogLevel level() const { return level_; }

  template <typename... Args>
  void log(LogLevel level, fmt::format_string<Args...> format, Args&&... args) const {
    if (!enabled(level)) return;
    fmt::print(out_, format, std::forward<Args>(args)...);
    std::fputc('\n', out_);
  }
  template <typename... Args>
  void info(fmt::format_string<Args...> format, Args&&... args) const {
    log(LogLevel::kInfo, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  void warning(fmt::format_string<Args...> format, Args&&... args) const {
    log(LogLevel::kWarning, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  void debug(fmt::format_string<Args...> format, Args&&... args) const {
    log(LogLevel::kDebug, format, std::forward<Args>(args)...);
  }

 private:
  LogLevel level_ = LogLevel::kQuiet;
  std::FILE* out_ = nullptr;
};

}  // namespace gnnpart
