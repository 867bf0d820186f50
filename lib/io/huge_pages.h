#pragma once
// Advice for large arrays that are reserved first and then written once front to back (a
// reader's CSR vectors): back them with transparent huge pages, so that writing them takes one
// page fault per 2 MiB instead of one per 4 KiB (cnr-2000's adjacency: 5.5 M entries, 21 MiB,
// about 5400 faults otherwise). Only advice: where the kernel has transparent huge pages off,
// or the call fails, the pages stay 4 KiB as before. Call it before the first write: pages
// already touched keep their size. Also an allocator for readers' arrays that are freed early
// (MappedAllocator, below).
#include <cstddef>
#include <vector>

namespace gnnpart::io::detail {

// madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside [data, data + bytes).
void advise_huge_pages(const void* data, std::size_t bytes);

// The vector's reserved capacity (not only its size).
template <typename T, typename A> void advise_huge_pages(const std::vector<T, A>& v) {
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// Memory mapped straight from the kernel and unmapped when freed, bypassing malloc: for large
// arrays freed early in a run. glibc raises its mmap threshold to the size of every mapping it
// frees (up to 32 MiB), after which the run's later arrays come from the heap and stay resident
// once freed (the second part of a 2-thread METIS read, freed after its copy, put cnr-2000 k = 8
// at 55.3 MB peak instead of 52.5-53.6).
void* map_pages(std::size_t bytes); // throws std::bad_alloc
void unmap_pages(void* data, std::size_t bytes);

template <typename T> struct MappedAllocator {
  using value_type = T;
  MappedAllocator() = default;
  template <typename U> MappedAllocator(const MappedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(map_pages(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { unmap_pages(p, n * sizeof(T)); }
  template <typename U> bool operator==(const MappedAllocator<U>&) const { return true; }
};

// A vector of `size` zeros whose pages were advised before the zeros were written.
template <typename T> std::vector<T> zeros_on_huge_pages(std::size_t size) {
  std::vector<T> v;
  v.reserve(size);
  advise_huge_pages(v);
  v.resize(size);
  return v;
}

} // namespace gnnpart::io::detail
