// Partition files in the gpmetis convention: one block id per line, line i = vertex i.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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

namespace {

// The lines "b\n" of blocks b < k (k below 10^7: at most 8 bytes each), formatted once and
// stored as 8-byte words with their lengths, so a line is one table lookup and one 8-byte store
// (to_chars and two appends a line cost about 86 instructions: 28M of a 2.0G-instruction fast
// run on cnr-2000 at k = 128).
struct LineTable {
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint8_t> length;
  explicit LineTable(BlockID k) : bytes(k < kMaxK ? k : 0), length(bytes.size()) {
    std::string line;
    for (BlockID b = 0; b < bytes.size(); ++b) {
      line.clear();
      append_number(line, b);
      line.push_back('\n');
      std::memcpy(&bytes[b], line.data(), line.size());
      length[b] = static_cast<std::uint8_t>(line.size());
    }
  }
  static constexpr BlockID kMaxK = 10'000'000;
};

} // namespace

void write_partition(const Partition& partition, const std::string& path) {
  OutputFile out(path);
  const LineTable table(partition.k);
  const std::size_t listed = table.bytes.size();
  write_parallel_blocks(out, partition.blocks.size(), 1 << 16,
                        [&](std::uint64_t begin, std::uint64_t end, std::string& text) {
                          // Every line fits 8 bytes, or is appended at the end of the room.
                          text.resize(8 * (end - begin) + 8);
                          char* at = text.data();
                          for (std::uint64_t u = begin; u < end; ++u) {
                            const BlockID b = partition.blocks[u];
                            if (b < listed) {
                              std::memcpy(at, &table.bytes[b], 8);
                              at += table.length[b];
                              continue;
                            }
                            const std::size_t used = static_cast<std::size_t>(at - text.data());
                            text.resize(used);
                            append_number(text, b);
                            text.push_back('\n');
                            const std::size_t now = text.size();
                            text.resize(now + 8 * (end - u) + 8);
                            at = text.data() + now;
                          }
                          text.resize(static_cast<std::size_t>(at - text.data()));
                        });
  out.commit();
}

std::string default_partition_path(const std::string& graph_path, BlockID k) {
  return graph_path + ".part." + std::to_string(k);
}

} // namespace gnnpart::io
