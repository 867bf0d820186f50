#include "io/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace gnnpart::io::detail {

void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHugePage = std::uintptr_t{1} << 21;
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t from = (first + kHugePage - 1) / kHugePage * kHugePage;
  const std::uintptr_t to = (first + bytes) / kHugePage * kHugePage;
  if (from < to) // smaller arrays gain nothing; a failure leaves 4 KiB pages
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

void* map_pages(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    throw std::bad_alloc();
  return p;
}

void unmap_pages(void* data, std::size_t bytes) {
  ::munmap(data, bytes);
}

} // namespace gnnpart::io::detail
