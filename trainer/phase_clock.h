#pragma once
// Per-phase wall-clock time of one rank's epoch (the phases of lib/cost/phases.h): enter(p)
// charges the time since the previous enter() to the phase then current, so the phases of an
// epoch add up to the rank's epoch time exactly.
#include <chrono>

#include "cost/phases.h"

namespace gnnpart::train {

class PhaseClock {
public:
  using Clock = std::chrono::steady_clock;

  // Starts an epoch in phase p (discards whatever was not taken).
  void start(cost::Phase p) {
    seconds_.fill(0.0);
    current_ = p;
    last_ = Clock::now();
  }
  void enter(cost::Phase p) {
    const Clock::time_point now = Clock::now();
    seconds_[cost::phase_index(current_)] += std::chrono::duration<double>(now - last_).count();
    current_ = p;
    last_ = now;
  }
  // Closes the current phase and returns the epoch's seconds per phase.
  cost::PhaseSeconds stop() {
    enter(current_);
    return seconds_;
  }

private:
  cost::PhaseSeconds seconds_{};
  cost::Phase current_ = cost::Phase::kCopy;
  Clock::time_point last_ = Clock::now();
};

// enter(p) on an optional clock.
inline void enter(PhaseClock* clock, cost::Phase p) {
  if (clock != nullptr)
    clock->enter(p);
}

} // namespace gnnpart::train
