#include "cost/profile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/json_reader.h"
#include "io/output_file.h"

namespace gnnpart::cost {
namespace {

using io::Json;

const Json& field(const std::string& path, const Json& object, const std::string& key,
                  Json::Type type) {
  const Json* v = object.find(key);
  if (v == nullptr)
    throw InputError(path, object.line, "profile lacks \"" + key + "\"");
  if (v->type != type)
    throw InputError(path, v->line, "profile \"" + key + "\" has the wrong type");
  return *v;
}

double seconds(const std::string& path, const Json& object, const std::string& key) {
  const Json& v = field(path, object, key, Json::Type::kNumber);
  if (!(v.number >= 0) || !std::isfinite(v.number))
    throw InputError(path, v.line, "profile \"" + key + "\" must be a finite number >= 0");
  return v.number;
}

// [{X: x, "seconds": s}, ...] with x positive and increasing; X is "width" but for the
// allreduce table's "bytes".
RateTable rate_table(const std::string& path, const Json& object, const std::string& key,
                     const std::string& x = "width") {
  const Json& v = field(path, object, key, Json::Type::kArray);
  RateTable table;
  for (const Json& item : v.items) {
    if (item.type != Json::Type::kObject)
      throw InputError(path, item.line, "profile \"" + key + "\": expected {" + x + ", seconds}");
    RatePoint point{seconds(path, item, x), seconds(path, item, "seconds")};
    if (point.width <= 0 || (!table.empty() && point.width <= table.back().width))
      throw InputError(path, item.line,
                       "profile \"" + key + "\": " + x + " must be positive and increasing");
    table.push_back(point);
  }
  if (table.empty())
    throw InputError(path, v.line, "profile \"" + key + "\" is empty");
  return table;
}

std::string table_json(const RateTable& table, const char* x = "width") {
  std::string out = "[";
  for (std::size_t i = 0; i < table.size(); ++i) {
    out += fmt::format("{}{{\"{}\": {}, \"seconds\": {:.6g}}}", i ? ", " : "", x, table[i].width,
                       table[i].seconds);
  }
  return out + "]";
}

// [{"rows": R, "rates": [{width, seconds}, ...]}, ...], rows increasing.
RateGrid rate_grid(const std::string& path, const Json& object, const std::string& key) {
  const Json& v = field(path, object, key, Json::Type::kArray);
  RateGrid grid;
  for (const Json& item : v.items) {
    if (item.type != Json::Type::kObject)
      throw InputError(path, item.line, "profile \"" + key + "\": expected {rows, rates}");
    const double rows = seconds(path, item, "rows");
    if (rows <= 0 || (!grid.rows.empty() && rows <= grid.rows.back()))
      throw InputError(path, item.line,
                       "profile \"" + key + "\": rows must be positive and increasing");
    grid.rows.push_back(rows);
    grid.tables.push_back(rate_table(path, item, "rates"));
  }
  if (grid.rows.empty())
    throw InputError(path, v.line, "profile \"" + key + "\" is empty");
  return grid;
}

std::string grid_json(const RateGrid& grid) {
  std::string out = "[";
  for (std::size_t i = 0; i < grid.rows.size(); ++i) {
    out += fmt::format("{}\n    {{\"rows\": {}, \"rates\": {}}}", i ? "," : "", grid.rows[i],
                       table_json(grid.tables[i]));
  }
  return out + "]";
}

} // namespace

namespace {

// The grid at `width`, interpolated in log(rows) between the two nearest block sizes.
double rate_at_rows(const RateGrid& grid, double rows, double width) {
  if (rows <= grid.rows.front())
    return rate_at(grid.tables.front(), width);
  if (rows >= grid.rows.back())
    return rate_at(grid.tables.back(), width);
  const std::size_t upper = static_cast<std::size_t>(
      std::lower_bound(grid.rows.begin(), grid.rows.end(), rows) - grid.rows.begin());
  const std::size_t lower = upper - 1;
  const double t = (std::log(rows) - std::log(grid.rows[lower])) /
                   (std::log(grid.rows[upper]) - std::log(grid.rows[lower]));
  const double a = rate_at(grid.tables[lower], width), b = rate_at(grid.tables[upper], width);
  return a + t * (b - a);
}

// The optional rate grids, by key (absent in older profiles).
constexpr std::array<std::pair<const char*, RateGrid CostProfile::*>, 7> kOptionalGrids{{
    {"spmm_grid", &CostProfile::spmm_grid},
    {"spmm_transposed_grid", &CostProfile::spmm_transposed_grid},
    {"spmm_near_grid", &CostProfile::spmm_near_grid},
    {"spmm_transposed_near_grid", &CostProfile::spmm_transposed_near_grid},
    {"pack_grid", &CostProfile::pack_grid},
    {"exchange_byte_grid", &CostProfile::exchange_byte_grid},
    {"unpack_grid", &CostProfile::unpack_grid},
}};

constexpr std::array<std::pair<const char*, double CostProfile::*>, 2> kOptionalSeconds{{
    {"sample_draw_s", &CostProfile::sample_draw_s},
    {"sample_index_s", &CostProfile::sample_index_s},
}};

} // namespace

double spmm_rate(const CostProfile& profile, double rows, double width, bool transposed) {
  if (transposed && !profile.spmm_transposed_grid.empty())
    return rate_at(profile.spmm_transposed_grid, rows, width);
  return profile.spmm_grid.empty() ? rate_at(profile.spmm, width)
                                   : rate_at(profile.spmm_grid, rows, width);
}

double rate_at(const RateGrid& grid, double rows, double width) {
  if (grid.empty())
    return 0;
  // Between two measured widths, each is read at the same bytes (rows x width) as asked: the
  // caches overflow at a size in bytes, and a width halfway between two others is not halfway
  // between their rates at the same rows.
  const RateTable& widths = grid.tables.front();
  const auto upper = std::lower_bound(widths.begin(), widths.end(), width,
                                      [](const RatePoint& p, double w) { return p.width < w; });
  if (upper == widths.begin() || upper == widths.end() || upper->width == width)
    return rate_at_rows(grid, rows, width);
  const double lo = (upper - 1)->width, hi = upper->width;
  const double t = std::log(width / lo) / std::log(hi / lo);
  const double a = rate_at_rows(grid, rows * width / lo, lo);
  const double b = rate_at_rows(grid, rows * width / hi, hi);
  return a + t * (b - a);
}

double rate_at(const RateTable& table, double width) {
  if (table.empty())
    return 0;
  if (width <= table.front().width)
    return table.front().seconds;
  if (width >= table.back().width)
    return table.back().seconds;
  const auto upper = std::lower_bound(table.begin(), table.end(), width,
                                      [](const RatePoint& p, double w) { return p.width < w; });
  const auto lower = upper - 1;
  const double t = (std::log(width) - std::log(lower->width)) /
                   (std::log(upper->width) - std::log(lower->width));
  return lower->seconds + t * (upper->seconds - lower->seconds);
}

double allreduce_seconds(const CostProfile& p, double bytes) {
  const RateTable& t = p.allreduce_table;
  if (t.empty())
    return p.allreduce_latency_s + bytes * p.allreduce_seconds_per_byte;
  if (t.size() == 1 || bytes <= t.front().width)
    return t.front().seconds;
  const auto upper =
      std::min(std::lower_bound(t.begin(), t.end(), bytes,
                                [](const RatePoint& q, double b) { return q.width < b; }),
               t.end() - 1);
  const auto lower = upper - 1;
  const double slope = (upper->seconds - lower->seconds) / (upper->width - lower->width);
  return std::max(0.0, lower->seconds + slope * (bytes - lower->width));
}

CostProfile read_profile(const std::string& path) {
  const Json root = io::read_json_file(path);
  if (root.type != Json::Type::kObject)
    throw InputError(path, root.line, "a profile is a JSON object");
  CostProfile p;
  p.name = field(path, root, "name", Json::Type::kString).text;
  p.source = field(path, root, "source", Json::Type::kString).text;
  if (p.source != "measured" && p.source != "assumed") {
    throw InputError(path, root.find("source")->line,
                     "profile \"source\" is \"measured\" or \"assumed\"");
  }
  if (const Json* t = root.find("transport"); t != nullptr && t->type == Json::Type::kString)
    p.transport = t->text;
  p.ranks = static_cast<int>(seconds(path, root, "ranks"));
  p.latency_s = seconds(path, root, "latency_s");
  p.seconds_per_byte = seconds(path, root, "seconds_per_byte");
  p.sync_jitter = seconds(path, root, "sync_jitter");
  p.allreduce_latency_s = seconds(path, root, "allreduce_latency_s");
  p.allreduce_seconds_per_byte = seconds(path, root, "allreduce_seconds_per_byte");
  p.overlap = seconds(path, root, "overlap");
  if (p.overlap > 1)
    throw InputError(path, root.find("overlap")->line, "profile \"overlap\" must be in [0, 1]");
  p.spmm = rate_table(path, root, "spmm");
  p.gemm = rate_table(path, root, "gemm");
  p.gemm_at_b = rate_table(path, root, "gemm_at_b");
  p.gemm_a_bt = rate_table(path, root, "gemm_a_bt");
  p.elementwise_s = seconds(path, root, "elementwise_s");
  p.dropout_s = seconds(path, root, "dropout_s");
  p.adam_s = seconds(path, root, "adam_s");
  if (root.find("sync_wait_s") != nullptr)
    p.sync_wait_s = seconds(path, root, "sync_wait_s");
  if (root.find("zero_test") != nullptr)
    p.zero_test = rate_table(path, root, "zero_test");
  if (root.find("reuse_cache_bytes") != nullptr)
    p.reuse_cache_bytes = seconds(path, root, "reuse_cache_bytes");
  for (const auto& [key, member] : kOptionalGrids) {
    if (root.find(key) != nullptr)
      p.*member = rate_grid(path, root, key);
  }
  if (root.find("allreduce_table") != nullptr)
    p.allreduce_table = rate_table(path, root, "allreduce_table", "bytes");
  if (root.find("shared_network") != nullptr) {
    p.shared_network = seconds(path, root, "shared_network");
    if (p.shared_network > 1)
      throw InputError(path, root.find("shared_network")->line,
                       "profile \"shared_network\" must be in [0, 1]");
  }
  for (const auto& [key, member] : kOptionalSeconds) {
    if (root.find(key) != nullptr)
      p.*member = seconds(path, root, key);
  }
  if (root.find("rank_spread") != nullptr) {
    p.rank_spread = seconds(path, root, "rank_spread");
    if (p.rank_spread > 1)
      throw InputError(path, root.find("rank_spread")->line,
                       "profile \"rank_spread\" must be in [0, 1]");
  }
  return p;
}

std::string profile_json(const CostProfile& p) {
  std::string optional;
  if (!p.zero_test.empty())
    optional += ",\n  \"zero_test\": " + table_json(p.zero_test);
  if (p.reuse_cache_bytes > 0)
    optional += fmt::format(",\n  \"reuse_cache_bytes\": {:.0f}", p.reuse_cache_bytes);
  for (const auto& [key, member] : kOptionalGrids) {
    if (!(p.*member).empty())
      optional += fmt::format(",\n  \"{}\": {}", key, grid_json(p.*member));
  }
  if (!p.allreduce_table.empty())
    optional += ",\n  \"allreduce_table\": " + table_json(p.allreduce_table, "bytes");
  if (p.shared_network > 0)
    optional += fmt::format(",\n  \"shared_network\": {:.4f}", p.shared_network);
  if (p.rank_spread > 0)
    optional += fmt::format(",\n  \"rank_spread\": {:.4f}", p.rank_spread);
  for (const auto& [key, member] : kOptionalSeconds) {
    if (p.*member > 0)
      optional += fmt::format(",\n  \"{}\": {:.6g}", key, p.*member);
  }
  return fmt::format(
      "{{\n  \"name\": {},\n  \"source\": {},\n  \"transport\": {},\n  \"ranks\": {},\n"
      "  \"latency_s\": {:.6g},\n  \"seconds_per_byte\": {:.6g},\n  \"sync_jitter\": {:.4f},\n"
      "  \"allreduce_latency_s\": {:.6g},\n  \"allreduce_seconds_per_byte\": {:.6g},\n"
      "  \"overlap\": {:.4f},\n  \"spmm\": {},\n  \"gemm\": {},\n  \"gemm_at_b\": {},\n"
      "  \"gemm_a_bt\": {},\n  \"elementwise_s\": {:.6g},\n  \"dropout_s\": {:.6g},\n"
      "  \"adam_s\": {:.6g},\n  \"sync_wait_s\": {:.6g}{}\n}}\n",
      io::json_quoted(p.name), io::json_quoted(p.source), io::json_quoted(p.transport), p.ranks,
      p.latency_s, p.seconds_per_byte, p.sync_jitter, p.allreduce_latency_s,
      p.allreduce_seconds_per_byte, p.overlap, table_json(p.spmm), table_json(p.gemm),
      table_json(p.gemm_at_b), table_json(p.gemm_a_bt), p.elementwise_s, p.dropout_s, p.adam_s,
      p.sync_wait_s, optional);
}

void write_profile(const std::string& path, const CostProfile& profile) {
  io::OutputFile out(path, false);
  out.write(profile_json(profile));
  out.commit();
}

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The median of one field over the profiles, `field` reading it from one profile.
template <typename Read> double median_field(const std::vector<CostProfile>& ps, Read field) {
  std::vector<double> values;
  for (const CostProfile& p : ps)
    values.push_back(field(p));
  return median_of(values);
}

template <typename Table> RateTable median_table(const std::vector<CostProfile>& ps, Table table) {
  RateTable out = table(ps[0]);
  for (const CostProfile& p : ps) {
    const RateTable& t = table(p);
    if (t.size() != out.size())
      throw InvalidParameter("median of profiles: their rate tables differ in size");
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i].width != out[i].width)
        throw InvalidParameter("median of profiles: their rate tables differ in widths");
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i].seconds = median_field(ps, [&](const CostProfile& p) { return table(p)[i].seconds; });
  return out;
}

template <typename Grid> RateGrid median_grid(const std::vector<CostProfile>& ps, Grid grid) {
  RateGrid out = grid(ps[0]);
  for (const CostProfile& p : ps)
    if (grid(p).rows != out.rows)
      throw InvalidParameter("median of profiles: their rate grids differ in rows");
  for (std::size_t r = 0; r < out.rows.size(); ++r)
    out.tables[r] = median_table(
        ps, [&](const CostProfile& p) -> const RateTable& { return grid(p).tables[r]; });
  return out;
}

} // namespace

CostProfile median_profile(const std::vector<CostProfile>& ps) {
  if (ps.empty())
    throw InvalidParameter("median of profiles: no profile");
  CostProfile m = ps[0];
#define GNNPART_MEDIAN_SCALAR(f)                                                                   \
  m.f = median_field(ps, [](const CostProfile& p) { return double(p.f); })
#define GNNPART_MEDIAN_TABLE(f)                                                                    \
  m.f = median_table(ps, [](const CostProfile& p) -> const RateTable& { return p.f; })
#define GNNPART_MEDIAN_GRID(f)                                                                     \
  m.f = median_grid(ps, [](const CostProfile& p) -> const RateGrid& { return p.f; })
  GNNPART_MEDIAN_SCALAR(latency_s);
  GNNPART_MEDIAN_SCALAR(seconds_per_byte);
  GNNPART_MEDIAN_SCALAR(sync_jitter);
  GNNPART_MEDIAN_SCALAR(sync_wait_s);
  GNNPART_MEDIAN_SCALAR(allreduce_latency_s);
  GNNPART_MEDIAN_SCALAR(allreduce_seconds_per_byte);
  GNNPART_MEDIAN_SCALAR(overlap);
  GNNPART_MEDIAN_SCALAR(elementwise_s);
  GNNPART_MEDIAN_SCALAR(dropout_s);
  GNNPART_MEDIAN_SCALAR(adam_s);
  GNNPART_MEDIAN_SCALAR(reuse_cache_bytes);
  GNNPART_MEDIAN_SCALAR(shared_network);
  GNNPART_MEDIAN_SCALAR(rank_spread);
  GNNPART_MEDIAN_SCALAR(sample_draw_s);
  GNNPART_MEDIAN_SCALAR(sample_index_s);
  GNNPART_MEDIAN_TABLE(spmm);
  GNNPART_MEDIAN_TABLE(gemm);
  GNNPART_MEDIAN_TABLE(gemm_at_b);
  GNNPART_MEDIAN_TABLE(gemm_a_bt);
  GNNPART_MEDIAN_TABLE(zero_test);
  GNNPART_MEDIAN_TABLE(allreduce_table);
  GNNPART_MEDIAN_GRID(spmm_grid);
  GNNPART_MEDIAN_GRID(spmm_transposed_grid);
  GNNPART_MEDIAN_GRID(pack_grid);
  GNNPART_MEDIAN_GRID(spmm_near_grid);
  GNNPART_MEDIAN_GRID(spmm_transposed_near_grid);
  GNNPART_MEDIAN_GRID(exchange_byte_grid);
  GNNPART_MEDIAN_GRID(unpack_grid);
#undef GNNPART_MEDIAN_SCALAR
#undef GNNPART_MEDIAN_TABLE
#undef GNNPART_MEDIAN_GRID
  return m;
}

} // namespace gnnpart::cost
