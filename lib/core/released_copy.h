#pragma once
// Copies out of an array that is read once, front to back, giving its whole pages already read
// back to the kernel (madvise MADV_DONTNEED) as the copy goes, so that the source and its copy
// are never resident in full together. For scratch arrays appended into their final vector: the
// graph engine's coarse arcs (partition/multilevel/coarsening/contraction.cc) and the second
// half of a 2-thread METIS read (io/metis_reader.cc). The source must not be read again (its
// given-back pages read as zeros); it is freed by its owner as before. Linux/POSIX only, as
// the rest of the memory code (docs/hypergraph.md, "Memory", fifteenth pass).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

namespace gnnpart {

// Gives back the pages that lie wholly inside [begin, end). Advice only: a failure leaves them
// resident.
inline void release_pages(const void* begin, const void* end) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t from = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
  const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(end) / page * page;
  if (from < to)
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

// to.insert(to.end(), from, from + count), a MiB at a time, each MiB's whole pages given back
// once copied (a page shared with the values before `from` or after from + count is kept).
template <typename Vector, typename T>
void append_released(Vector& to, const T* from, std::size_t count) {
  constexpr std::size_t kStep = (std::size_t{1} << 20) / sizeof(T);
  const T* const begin = from;
  const T* const end = from + count;
  while (from < end) {
    const T* const next = from + std::min(kStep, static_cast<std::size_t>(end - from));
    to.insert(to.end(), from, next);
    from = next;
    release_pages(begin, from);
  }
}

} // namespace gnnpart
