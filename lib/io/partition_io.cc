// Partition files in the gpmetis convention: one block id per line, line i = vertex i.
#include <algorithm>
#include <string>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/output_file.h"
#include "io/value_lines.h"

namespace gnnpart::io {

Partition read_partition(const std::string& path, NodeID n, BlockID k) {
  const InputBuffer in(path);
  if (in.empty() && n > 0)
    throw InputError(path, 0, "empty input (expected one block id per vertex)");
  detail::ValueLineRules rules;
  rules.what = "block id";
  rules.comments = "";
  rules.min_value = 0;
  rules.max_value = k > 0 ? std::int64_t{k} - 1 : std::int64_t{kInvalidBlockID} - 1;
  const std::vector<std::int64_t> values = detail::read_exact_values(in, n, rules);
  Partition partition;
  partition.blocks.resize(n);
  std::int64_t max_block = -1;
  for (std::size_t u = 0; u < values.size(); ++u) {
    partition.blocks[u] = static_cast<BlockID>(values[u]);
    max_block = std::max(max_block, values[u]);
  }
  partition.k = k > 0 ? k : static_cast<BlockID>(max_block + 1);
  return partition;
}

void write_partition(const Partition& partition, const std::string& path) {
  OutputFile out(path);
  write_parallel_blocks(out, partition.blocks.size(), 1 << 16,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          for (std::uint64_t u = begin; u < end; ++u) {
                            append_number(text, partition.blocks[u]);
                            text.push_back('\n');
                          }
                        });
  out.commit();
}

std::string default_partition_path(const std::string& graph_path, BlockID k) {
  return graph_path + ".part." + std::to_string(k);
}

} // namespace gnnpart::io
