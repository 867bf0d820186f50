#pragma once
// What `gnnpart export` reads: a layout directory (its assignment.txt, sized by layout.json)
// or a partition file (one block id per line, gpmetis convention).
#include <string>

#include "core/partition.h"

namespace gnnpart::exporting {

// True when path is a directory holding layout.json.
bool is_layout_directory(const std::string& path);

// The vertex-to-block assignment of a vertex layout or of a partition file. k = 0 takes
// max id + 1 (a layout's k comes from layout.json). Errors name FILE:LINE (InputError).
Partition read_assignment(const std::string& path, BlockID k = 0);

} // namespace gnnpart::exporting
