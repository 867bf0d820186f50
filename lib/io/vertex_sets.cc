// Vertex sets (train/val/test ids) and per-vertex integer values (labels, weights).
#include <string>
#include <vector>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/value_lines.h"

namespace gnnpart::io {

std::vector<NodeID> read_vertex_set(const std::string& path, NodeID n) {
  const InputBuffer in(path);
  detail::ValueLineRules rules;
  rules.what = "vertex id";
  rules.comments = "#%";
  rules.min_value = 0;
  rules.max_value = std::int64_t{n} - 1;
  const std::vector<std::int64_t> values = detail::read_values(in, rules);
  std::vector<NodeID> ids(values.size());
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < values.size(); ++i) {
    ids[i] = static_cast<NodeID>(values[i]);
    if (seen[ids[i]])
      throw InputError(path, detail::line_of_value(in, rules, i),
                       "vertex id " + std::to_string(ids[i]) + " is listed twice");
    seen[ids[i]] = true;
  }
  return ids;
}

std::vector<std::int64_t> read_vertex_values(const std::string& path, NodeID n) {
  const InputBuffer in(path);
  if (in.empty() && n > 0)
    throw InputError(path, 0, "empty input (expected one value per vertex)");
  detail::ValueLineRules rules;
  rules.what = "value";
  rules.comments = "#%";
  return detail::read_exact_values(in, n, rules);
}

} // namespace gnnpart::io
