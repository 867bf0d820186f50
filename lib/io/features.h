#pragma once
// Sparse node features as shipped in ../shared/datasets/<name>.features.gz: '#' comment lines
// (with "# rows: N" and "# cols: F"), then one nonzero "row col value" per line, 0-based.
// Plain or gzip text.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/layout.h"
#include "core/types.h"

namespace gnnpart::io {

// CSR feature matrix, columns increasing inside a row.
struct SparseFeatures {
  NodeID rows = 0;
  std::uint32_t cols = 0;
  std::vector<EdgeID> offsets; // rows + 1
  std::vector<std::uint32_t> col_ids;
  std::vector<float> values;
};

// n > 0: the graph's vertex count; the file must not have more rows (a "# rows:" header must
// equal n), missing rows are all-zero. n = 0: rows from the header or max row + 1. Malformed
// lines, ids out of range and repeated (row, col) pairs are InputError "FILE:LINE: ...".
SparseFeatures read_features(const std::string& path, NodeID n = 0);

// The rows of the given global ids, in that order.
FeatureSlice slice_features(const SparseFeatures& features, std::span<const NodeID> rows);

} // namespace gnnpart::io
