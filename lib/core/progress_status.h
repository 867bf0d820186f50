#pragma once
// What a long run is doing now ("uncoarsen: level 3 of 9, 120411 vertices"): written by the
// thread that orchestrates the run (through its Timer) and read by a reporter on another thread,
// such as the CLI's heartbeat line.
#include <mutex>
#include <string>

namespace gnnpart {

class ProgressStatus {
public:
  void set(std::string text) {
    std::lock_guard lock(mutex_);
    text_ = std::move(text);
  }
  std::string get() const {
    std::lock_guard lock(mutex_);
    return text_;
  }

private:
  mutable std::mutex mutex_;
  std::string text_;
};

} // namespace gnnpart
