// append_released (core/released_copy.h): the copy is exact although the source's pages go back
// to the kernel as it goes (a page given back before it was copied would read as zeros).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/released_copy.h"

namespace gnnpart {
namespace {

template <typename T> T value(std::size_t i) {
  return static_cast<T>(i * 2654435761u + 1);
}

template <typename T> void check_copy(std::size_t size, std::size_t skip, std::size_t keep) {
  std::vector<T> source(size);
  for (std::size_t i = 0; i < size; ++i)
    source[i] = value<T>(i); // never 0
  std::vector<T> to = {T{7}, T{8}, T{9}};
  // From an unaligned start to short of the end: the pages shared with the values around the
  // range must stay.
  append_released(to, source.data() + skip, size - skip - keep);
  ASSERT_EQ(to.size(), 3 + size - skip - keep);
  EXPECT_EQ(to[0], T{7});
  EXPECT_EQ(to[2], T{9});
  std::size_t wrong = 0;
  for (std::size_t i = skip; i < size - keep; ++i)
    wrong += to[3 + i - skip] != value<T>(i); // not source[i]: its pages went back
  EXPECT_EQ(wrong, 0u);
  // The values outside the range are still readable.
  for (std::size_t i = 0; i < skip; ++i)
    EXPECT_EQ(source[i], value<T>(i));
  for (std::size_t i = size - keep; i < size; ++i)
    EXPECT_EQ(source[i], value<T>(i));
}

TEST(ReleasedCopy, AppendsExactlyOverManyMiB) {
  check_copy<std::uint32_t>(3'000'001, 5, 3); // 11.4 MiB: many steps of 1 MiB
  check_copy<std::uint64_t>(1'500'007, 1, 1); // 11.4 MiB at 8 bytes
  check_copy<std::uint32_t>(1'000, 1, 1);     // less than a page a step
  check_copy<std::uint64_t>(262'144, 0, 0);   // exactly 2 MiB
}

} // namespace
} // namespace gnnpart
