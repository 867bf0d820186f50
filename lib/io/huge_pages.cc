#include "io/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace gnnpart::io::detail {

void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHugePage = std::uintptr_t{1} << 21;
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t from = (first + kHugePage - 1) / kHugePage * kHugePage;
  const std::uintptr_t to = (first + bytes) / kHugePage * kHugePage;
  if (from < to) // smaller arrays gain nothing; a failure leaves 4 KiB pages
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

} // namespace gnnpart::io::detail
