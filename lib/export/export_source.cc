#include "export/export_source.h"

#include <algorithm>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "layout/layout_io.h"

namespace gnnpart::exporting {
namespace {

// Lines of a partition file (a last line without '\n' counts); the reader checks each one.
NodeID count_lines(const std::string& path) {
  const io::InputBuffer in(path);
  const std::string_view text = in.data();
  std::uint64_t lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n')
    ++lines;
  if (lines > std::numeric_limits<NodeID>::max())
    throw InputError(path, 0, fmt::format("{} lines exceed the vertex id width", lines));
  return static_cast<NodeID>(lines);
}

} // namespace

bool is_layout_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         std::filesystem::exists(std::filesystem::path(path) / "layout.json", ec);
}

Partition read_assignment(const std::string& path, BlockID k) {
  if (is_layout_directory(path)) {
    const io::LayoutManifest manifest = io::read_layout_manifest(path);
    if (manifest.kind != "vertex")
      throw InvalidParameter(fmt::format(
          "{}: an {} layout assigns edges, not vertices; export a vertex layout", path,
          manifest.kind));
    if (k != 0 && k != manifest.k)
      throw InvalidParameter(fmt::format("{}: -k {} but the layout has k = {}", path, k,
                                         manifest.k));
    return io::read_partition((std::filesystem::path(path) / "assignment.txt").string(),
                              manifest.n, manifest.k);
  }
  return io::read_partition(path, count_lines(path), k);
}

} // namespace gnnpart::exporting
