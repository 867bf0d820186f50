#include "distributed/memory_trace.h"

#include <algorithm>
#include <fstream>

namespace gnnpart::distributed {

namespace {

bool g_enabled = false;
std::vector<MemoryPhase> g_phases;

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
  g_enabled = true; // the first phase starts at process start (MPI and the runtime included)
  g_phases.clear();
}

void mark_memory_phase(const std::string& name) {
  if (!g_enabled)
    return;
  g_phases.push_back(read_status(name));
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
