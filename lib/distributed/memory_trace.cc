#include "distributed/memory_trace.h"

#include <algorithm>
#include <fstream>

namespace gnnpart::distributed {

namespace {

bool g_enabled = false;
std::vector<MemoryPhase> g_phases;

// VmHWM and VmRSS of this process in KiB (0 when /proc is not readable).
std::pair<std::int64_t, std::int64_t> read_status() {
  std::ifstream status("/proc/self/status");
  std::string line;
  std::int64_t hwm = 0, rss = 0;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0)
      hwm = std::stoll(line.substr(6));
    else if (line.rfind("VmRSS:", 0) == 0)
      rss = std::stoll(line.substr(6));
  }
  return {hwm, rss};
}

void reset_peak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

} // namespace

void enable_memory_trace() {
  g_enabled = true; // the first phase starts at process start (MPI and the runtime included)
  g_phases.clear();
}

void mark_memory_phase(const std::string& name) {
  if (!g_enabled)
    return;
  const auto [hwm, rss] = read_status();
  g_phases.push_back({name, hwm, rss});
  reset_peak();
}

const std::vector<MemoryPhase>& memory_phases() {
  return g_phases;
}

std::int64_t traced_peak_kb() {
  std::int64_t peak = 0;
  for (const MemoryPhase& phase : g_phases)
    peak = std::max(peak, phase.peak_kb);
  return peak;
}

} // namespace gnnpart::distributed
