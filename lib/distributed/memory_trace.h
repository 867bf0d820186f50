#pragma once
// Peak resident memory per phase of a distributed run, for measuring (an opt-in debug trace:
// gnnpart-mpi --memory-trace). mark(name) ends the phase that began at the previous mark: it
// records the peak RSS since then (VmHWM) and resets the kernel's high-water mark
// (/proc/self/clear_refs), so each record is the peak of one phase. The overall peak stays
// available as the largest record. Off (the default), mark does nothing and the kernel's
// peak is never reset. Each record also has the phase's wall-clock and CPU time.
#include <cstdint>
#include <string>
#include <vector>

namespace gnnpart::distributed {

struct MemoryPhase {
  std::string name;
  std::int64_t peak_kb = 0; // peak RSS during the phase
  std::int64_t end_kb = 0;  // RSS when it ended
  // Of end_kb: pages of mapped files (the binary, shared libraries) and shared memory (MPI's
  // shared-memory transport), which the other ranks on the node map too.
  std::int64_t end_file_kb = 0;
  std::int64_t end_shmem_kb = 0;
  // Wall-clock and CPU (user + system, all threads) milliseconds of the phase: the phase times
  // of a run, measured with its memory (the first phase starts at enable_memory_trace).
  std::int64_t wall_ms = 0;
  std::int64_t cpu_ms = 0;
};

void enable_memory_trace();
void mark_memory_phase(const std::string& name);
const std::vector<MemoryPhase>& memory_phases();
// Largest phase peak (0 when the trace is off).
std::int64_t traced_peak_kb();

// This process's resident set now and its peak so far (KiB; the trace's largest phase counts
// too, as the trace resets the kernel's peak at its marks); zeros where /proc is not readable.
// Read with the trace on or off (multilevel.cc asks it whether the finest adjacency may come
// back into memory for the refinement without raising the peak).
struct ResidentSet {
  std::int64_t now_kb = 0;
  std::int64_t peak_kb = 0;
};
ResidentSet resident_set();

} // namespace gnnpart::distributed
