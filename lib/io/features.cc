#include "io/features.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <numeric>
#include <string_view>
#include <tuple>

#include <zlib.h>

#include "core/errors.h"

namespace gnnpart::io {
namespace {

class GzLines {
public:
  explicit GzLines(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
    if (file_ == nullptr)
      throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    gzbuffer(file_, 1 << 17);
  }
  ~GzLines() { gzclose(file_); }
  GzLines(const GzLines&) = delete;
  GzLines& operator=(const GzLines&) = delete;

  // Next line without the newline; false at the end.
  bool next(std::string& line) {
    line.clear();
    char buffer[4096];
    while (gzgets(file_, buffer, sizeof buffer) != nullptr) {
      line += buffer;
      if (!line.empty() && line.back() == '\n')
        break;
    }
    int err = 0;
    const char* message = gzerror(file_, &err);
    if (err != Z_OK && err != Z_STREAM_END)
      throw InputError(path_, line_ + 1, message);
    if (line.empty())
      return false;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.pop_back();
    ++line_;
    return true;
  }
  std::uint64_t line_number() const { return line_; }

private:
  std::string path_;
  gzFile file_;
  std::uint64_t line_ = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Reads "# key: value" headers with an unsigned value.
bool header_value(std::string_view line, std::string_view key, std::uint64_t& value) {
  line = trim(line.substr(1));
  if (line.substr(0, key.size()) != key)
    return false;
  line = trim(line.substr(key.size()));
  if (line.empty() || line.front() != ':')
    return false;
  line = trim(line.substr(1));
  const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
  return ec == std::errc() && ptr == line.data() + line.size();
}

struct Entry {
  NodeID row;
  std::uint32_t col;
  float value;
  std::uint64_t line;
};

} // namespace

SparseFeatures read_features(const std::string& path, NodeID n) {
  GzLines lines(path);
  std::string line;
  std::uint64_t header_rows = 0, header_cols = 0;
  bool have_rows = false, have_cols = false;
  std::vector<Entry> entries;
  std::uint64_t max_row = 0, max_col = 0;
  while (lines.next(line)) {
    std::string_view view = trim(line);
    if (view.empty())
      continue;
    if (view.front() == '#' || view.front() == '%') {
      have_rows = have_rows || header_value(view, "rows", header_rows);
      have_cols = have_cols || header_value(view, "cols", header_cols);
      continue;
    }
    std::uint64_t row = 0, col = 0;
    const char* p = view.data();
    const char* end = view.data() + view.size();
    auto skip_space = [&] {
      while (p < end && (*p == ' ' || *p == '\t'))
        ++p;
    };
    auto fail = [&](const std::string& what) {
      throw InputError(path, lines.line_number(), what + ": '" + std::string(view) + "'");
    };
    auto [p1, e1] = std::from_chars(p, end, row);
    if (e1 != std::errc())
      fail("expected 'row col value'");
    p = p1;
    skip_space();
    auto [p2, e2] = std::from_chars(p, end, col);
    if (e2 != std::errc())
      fail("expected 'row col value'");
    p = p2;
    skip_space();
    float value = 0;
    auto [p3, e3] = std::from_chars(p, end, value);
    if (e3 != std::errc())
      fail("expected a number as value");
    p = p3;
    skip_space();
    if (p != end)
      fail("trailing characters");
    if (have_rows && row >= header_rows)
      fail("row id >= " + std::to_string(header_rows) + " rows");
    if (n > 0 && row >= n)
      fail("row id >= " + std::to_string(n) + " vertices");
    if (have_cols && col >= header_cols)
      fail("column id >= " + std::to_string(header_cols) + " cols");
    if (row > kMaxNodeID)
      fail(std::string("row id too large; ") + kWideIdHint);
    if (col >= 0xffffffffULL)
      fail("column id too large");
    max_row = std::max(max_row, row);
    max_col = std::max(max_col, col);
    entries.push_back(
        {static_cast<NodeID>(row), static_cast<std::uint32_t>(col), value, lines.line_number()});
  }
  if (n > 0 && have_rows && header_rows != n) {
    throw InputError(path, 0,
                     "# rows: " + std::to_string(header_rows) + " but the graph has " +
                         std::to_string(n) + " vertices");
  }
  SparseFeatures f;
  f.rows = n > 0       ? n
           : have_rows ? static_cast<NodeID>(header_rows)
                       : static_cast<NodeID>(entries.empty() ? 0 : max_row + 1);
  f.cols = have_cols ? static_cast<std::uint32_t>(header_cols)
                     : static_cast<std::uint32_t>(entries.empty() ? 0 : max_col + 1);
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  f.offsets.assign(static_cast<std::size_t>(f.rows) + 1, 0);
  f.col_ids.reserve(entries.size());
  f.values.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && entries[i].row == entries[i - 1].row && entries[i].col == entries[i - 1].col) {
      throw InputError(path, entries[i].line,
                       "repeated entry (" + std::to_string(entries[i].row) + ", " +
                           std::to_string(entries[i].col) + ")");
    }
    ++f.offsets[entries[i].row + 1];
    f.col_ids.push_back(entries[i].col);
    f.values.push_back(entries[i].value);
  }
  std::partial_sum(f.offsets.begin(), f.offsets.end(), f.offsets.begin());
  return f;
}

FeatureSlice slice_features(const SparseFeatures& features, std::span<const NodeID> rows) {
  FeatureSlice slice;
  slice.dim = features.cols;
  slice.offsets.reserve(rows.size() + 1);
  slice.offsets.push_back(0);
  for (NodeID u : rows) {
    if (u >= features.rows) {
      throw InvalidParameter("feature slice: row " + std::to_string(u) +
                             " >= " + std::to_string(features.rows) + " rows");
    }
    for (EdgeID e = features.offsets[u]; e < features.offsets[u + 1]; ++e) {
      slice.cols.push_back(features.col_ids[e]);
      slice.values.push_back(features.values[e]);
    }
    slice.offsets.push_back(slice.cols.size());
  }
  return slice;
}

} // namespace gnnpart::io
