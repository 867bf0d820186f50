#pragma once
// DistDGL's partition assignment (the output of step 1 of DGL's distributed partitioning
// pipeline, tools/partition_algo and tools/distpartitioning/parmetis_postprocess.py in DGL):
// DIR/<node type>.txt with one partition id per line (line i = node i of that type) and
// DIR/partition_meta.json {"algo_name", "num_parts", "version"}, which dispatch_data.py reads
// with --partitions-dir DIR. Field by field against the reader: docs/export.md.
#include <string>

#include "core/partition.h"

namespace gnnpart::exporting {

// The name DGL gives the only node type of a homogeneous graph.
inline constexpr const char* kDglHomogeneousNodeType = "_N";

// Writes both files into dir (created when missing); each file is written to a temporary name
// and renamed into place, the manifest last, so a failed export leaves no partition_meta.json.
// Throws InvalidParameter for an empty node type or one that is not a plain file name.
void write_distdgl_partition(const Partition& partition, const std::string& dir,
                             const std::string& node_type = kDglHomogeneousNodeType);

// The JSON text of partition_meta.json for k parts.
std::string distdgl_partition_meta(BlockID k);

} // namespace gnnpart::exporting
