#pragma once
// Files with one integer per line (partitions, labels, vertex weights, vertex sets), parsed in
// parallel chunks with exact line numbers in errors.
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "io/input_buffer.h"

namespace gnnpart::io::detail {

struct ValueLineRules {
  std::string_view what = "value"; // noun for messages ("block id", "label", "vertex id")
  std::string_view comments;       // comment characters ("" for none)
  std::int64_t min_value = std::numeric_limits<std::int64_t>::min();
  std::int64_t max_value = std::numeric_limits<std::int64_t>::max(); // inclusive
};

// Exactly `count` values, line i (comments excluded) = item i. Blank lines are errors unless
// only blank lines follow; fewer or more values than count is an error.
std::vector<std::int64_t> read_exact_values(const InputBuffer& in, std::uint64_t count,
                                            const ValueLineRules& rules);

// Any number of values; blank lines and comment lines skipped.
std::vector<std::int64_t> read_values(const InputBuffer& in, const ValueLineRules& rules);

// Line number of the i-th value of read_values (comments and blank lines skipped).
std::uint64_t line_of_value(const InputBuffer& in, const ValueLineRules& rules, std::uint64_t i);

} // namespace gnnpart::io::detail
