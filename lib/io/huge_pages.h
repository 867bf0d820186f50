#pragma once
// Advice for large arrays that are reserved first and then written once front to back (a
// reader's CSR vectors): back them with transparent huge pages, so that writing them takes one
// page fault per 2 MiB instead of one per 4 KiB (cnr-2000's adjacency: 5.5 M entries, 21 MiB,
// about 5400 faults otherwise). Only advice: where the kernel has transparent huge pages off,
// or the call fails, the pages stay 4 KiB as before. Call it before the first write: pages
// already touched keep their size.
#include <cstddef>
#include <vector>

namespace gnnpart::io::detail {

// madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside [data, data + bytes).
void advise_huge_pages(const void* data, std::size_t bytes);

// The vector's reserved capacity (not only its size).
template <typename T> void advise_huge_pages(const std::vector<T>& v) {
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// A vector of `size` zeros whose pages were advised before the zeros were written.
template <typename T> std::vector<T> zeros_on_huge_pages(std::size_t size) {
  std::vector<T> v;
  v.reserve(size);
  advise_huge_pages(v);
  v.resize(size);
  return v;
}

} // namespace gnnpart::io::detail
