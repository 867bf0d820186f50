#include "distributed/memory_trace.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>

namespace gnnpart::distributed {

namespace {

bool g_enabled = false;
std::vector<MemoryPhase> g_phases;
std::int64_t g_last_wall_ms = 0;
std::int64_t g_last_cpu_ms = 0;

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t cpu_ms() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_usec / 1000;
  };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// The phase record of the current /proc/self/status (zeros when it is not readable).
MemoryPhase read_status(const std::string& name) {
  std::ifstream status("/proc/self/status");
  std::string line;
  MemoryPhase phase{name};
  const auto field = [&](const char* key, std::int64_t& value) {
    const std::string prefix = std::string(key) + ":";
    if (line.rfind(prefix, 0) == 0)
      value = std::stoll(line.substr(prefix.size()));
  };
  while (std::getline(status, line)) {
    field("VmHWM", phase.peak_kb);
    field("VmRSS", phase.end_kb);
    field("RssFile", phase.end_file_kb);
    field("RssShmem", phase.end_shmem_kb);
  }
  return phase;
}

void reset_peak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

} // namespace

void enable_memory_trace() {
  g_enabled = true; // the first phase's memory counts from process start (MPI, the runtime)
  g_phases.clear();
  g_last_wall_ms = wall_ms();
  g_last_cpu_ms = cpu_ms();
}

void mark_memory_phase(const std::string& name) {
  if (!g_enabled)
    return;
  MemoryPhase phase = read_status(name);
  const std::int64_t wall = wall_ms(), cpu = cpu_ms();
  phase.wall_ms = wall - g_last_wall_ms;
  phase.cpu_ms = cpu - g_last_cpu_ms;
  g_last_wall_ms = wall;
  g_last_cpu_ms = cpu;
  g_phases.push_back(phase);
  reset_peak();
}

const std::vector<MemoryPhase>& memory_phases() {
  return g_phases;
}

ResidentSet resident_set() {
  const MemoryPhase status = read_status("");
  return {status.end_kb, std::max(status.peak_kb, traced_peak_kb())};
}

std::int64_t traced_peak_kb() {
  std::int64_t peak = 0;
  for (const MemoryPhase& phase : g_phases)
    peak = std::max(peak, phase.peak_kb);
  return peak;
}

} // namespace gnnpart::distributed
