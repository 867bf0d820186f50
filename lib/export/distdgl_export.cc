#include "export/distdgl_export.h"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/output_file.h"

namespace gnnpart::exporting {

std::string distdgl_partition_meta(BlockID k) {
  // DGL's load_partition_meta (tools/partition_algo/base.py) accepts version "1.0.0" and the
  // algorithm names "random" and "metis" only; gnnpart's assignment takes METIS's place.
  return fmt::format("{{\n    \"algo_name\": \"metis\",\n    \"num_parts\": {},\n"
                     "    \"version\": \"1.0.0\"\n}}\n",
                     k);
}

void write_distdgl_partition(const Partition& partition, const std::string& dir,
                             const std::string& node_type) {
  if (node_type.empty() || node_type.find('/') != std::string::npos || node_type == "." ||
      node_type == "..")
    throw InvalidParameter(fmt::format("node type '{}' is not a plain file name", node_type));
  if (partition.k == 0)
    throw InvalidParameter("the partition has no blocks");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw SystemError(fmt::format("{}: cannot create the directory: {}", dir, ec.message()));
  const std::string base = (std::filesystem::path(dir) / node_type).string();
  io::write_partition(partition, base + ".txt");
  io::OutputFile meta((std::filesystem::path(dir) / "partition_meta.json").string());
  meta.write(distdgl_partition_meta(partition.k));
  meta.commit();
}

} // namespace gnnpart::exporting
