// hMETIS hypergraphs: header "nets n [fmt]" (fmt 0/1/10/11), one line per net
// ([net weight] pins..., 1-based), then with fmt 10/11 one vertex weight per line.
// '%' comment lines and blank lines are skipped.
#include <algorithm>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/text_parsing.h"
#include "io/whole_file.h"

namespace gnnpart::io {

namespace {

using namespace detail;

struct HgrFormat {
  std::uint64_t nets = 0, n = 0;
  bool net_weights = false, vertex_weights = false;
};

struct Chunk {
  std::vector<EdgeID> sizes; // pins per net row
  std::vector<NodeID> pins;
  std::vector<Weight> net_weights;
  std::vector<Weight> vertex_weights;
  std::uint64_t first_vertex_row = 0; // global index of this chunk's first vertex-weight row
  ParseFailure failure;
};

void parse_rows(std::string_view data, std::size_t begin, std::size_t end, std::uint64_t row,
                const HgrFormat& f, Chunk& chunk) {
  auto fail = [&](const char* at, std::string message) {
    chunk.failure.set(static_cast<std::size_t>(at - data.data()), std::move(message));
  };
  const std::uint64_t total_rows = f.nets + (f.vertex_weights ? f.n : 0);
  chunk.first_vertex_row = std::max(row, f.nets) - f.nets;
  for_each_line(data, begin, end, [&](const char* p, const char* e) {
    if (!is_row(p, e, true))
      return true;
    const std::uint64_t r = row++;
    p = skip_blanks(p, e);
    if (r >= total_rows) {
      fail(p, "more lines than the header announces (" + std::to_string(f.nets) + " nets" +
                  (f.vertex_weights ? " and " + std::to_string(f.n) + " vertex weights" : "") +
                  ")");
      return false;
    }
    std::uint64_t value = 0;
    if (r >= f.nets) { // vertex weight line
      const char* at = p;
      const NumberStatus status = parse_unsigned(p, e, false, value);
      if (status != NumberStatus::kOk) {
        fail(at, number_error(status, "a vertex weight", at, e, false));
        return false;
      }
      p = skip_blanks(p, e);
      if (p != e) {
        fail(p, "unexpected token '" + token_text(p, e, false) + "' after the vertex weight");
        return false;
      }
      chunk.vertex_weights.push_back(static_cast<Weight>(value));
      return true;
    }
    if (f.net_weights) {
      const char* at = p;
      const NumberStatus status = parse_unsigned(p, e, false, value);
      if (status != NumberStatus::kOk || value == 0) {
        fail(at, status == NumberStatus::kOk ? "net weight must be positive, found 0"
                                             : number_error(status, "a net weight", at, e, false));
        return false;
      }
      chunk.net_weights.push_back(static_cast<Weight>(value));
      p = skip_blanks(p, e);
    }
    EdgeID size = 0;
    while (p != e) {
      const char* at = p;
      const NumberStatus status = parse_unsigned(p, e, false, value);
      if (status != NumberStatus::kOk) {
        fail(at, number_error(status, "a pin (vertex id)", at, e, false));
        return false;
      }
      if (value == 0 || value > f.n) {
        fail(at, "pin " + token_text(at, e, false) + " of net " + std::to_string(r + 1) +
                     " is out of range 1.." + std::to_string(f.n));
        return false;
      }
      chunk.pins.push_back(static_cast<NodeID>(value - 1));
      ++size;
      p = skip_blanks(p, e);
    }
    if (size == 0) {
      fail(e, "net " + std::to_string(r + 1) + " has no pins");
      return false;
    }
    chunk.sizes.push_back(size);
    return true;
  });
}

Hypergraph parse_hmetis(const InputBuffer& in) {
  const std::string_view data = in.data();
  const std::string& file = in.path();
  const HeaderLine header = find_header_line(data, 0);
  if (header.begin == kNoOffset)
    throw InputError(file, 0, "empty input: no hMETIS header");
  const auto values = parse_header_numbers(file, data, header,
                                           {"the net count", "the vertex count", "the fmt code"});
  const std::uint64_t header_line = line_number_at(data, header.begin);
  if (values.size() < 2)
    throw InputError(file, header_line, "header must hold 'nets vertices [fmt]'");
  HgrFormat f;
  f.nets = values[0];
  f.n = values[1];
  if (f.n > kMaxNodeID + 1 || f.nets > kMaxNodeID + 1)
    throw InputError(file, header_line,
                     "header counts exceed the 32-bit id range; " + std::string(kWideIdHint));
  if (values.size() == 3) {
    if (values[2] != 0 && values[2] != 1 && values[2] != 10 && values[2] != 11)
      throw InputError(file, header_line,
                       "fmt code " + std::to_string(values[2]) + " is invalid (0, 1, 10 or 11)");
    f.net_weights = values[2] % 10 == 1;
    f.vertex_weights = values[2] / 10 == 1;
  }

  const RowIndex rows = index_rows(data, header.next, true);
  const std::size_t chunks = rows.chunks();
  std::vector<Chunk> parsed(chunks);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    parse_rows(data, rows.bounds[c], rows.bounds[c + 1], rows.first_row[c], f, parsed[c]);
  });
  std::vector<ParseFailure> failures(chunks);
  for (std::size_t c = 0; c < chunks; ++c)
    failures[c] = std::move(parsed[c].failure);
  failures.push_back(rows.long_line);
  throw_earliest(file, data, failures);
  const std::uint64_t expected_rows = f.nets + (f.vertex_weights ? f.n : 0);
  if (rows.rows() < expected_rows) {
    const bool nets_missing = rows.rows() < f.nets;
    throw InputError(file, count_lines(data),
                     nets_missing
                         ? "header declares " + std::to_string(f.nets) + " nets but the file has " +
                               std::to_string(rows.rows()) + " net lines"
                         : "fmt " + std::to_string(values[2]) + " needs " + std::to_string(f.n) +
                               " vertex weight lines after the nets, found " +
                               std::to_string(rows.rows() - f.nets));
  }

  std::vector<std::size_t> net_first(chunks + 1, 0), pin_first(chunks + 1, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    net_first[c + 1] = net_first[c] + parsed[c].sizes.size();
    pin_first[c + 1] = pin_first[c] + parsed[c].pins.size();
  }
  std::vector<EdgeID> net_offsets(f.nets + 1, 0);
  std::vector<NodeID> pins(pin_first[chunks]);
  std::vector<Weight> net_weights(f.net_weights ? f.nets : 0);
  std::vector<Weight> vertex_weights(f.vertex_weights ? f.n : 0);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    const Chunk& chunk = parsed[c];
    std::copy(chunk.pins.begin(), chunk.pins.end(), pins.begin() + pin_first[c]);
    std::copy(chunk.sizes.begin(), chunk.sizes.end(), net_offsets.begin() + net_first[c] + 1);
    std::copy(chunk.net_weights.begin(), chunk.net_weights.end(),
              net_weights.begin() + (f.net_weights ? net_first[c] : 0));
    std::copy(chunk.vertex_weights.begin(), chunk.vertex_weights.end(),
              vertex_weights.begin() + (chunk.vertex_weights.empty() ? 0 : chunk.first_vertex_row));
  });
  parsed.clear();
  for (std::size_t e = 0; e < f.nets; ++e)
    net_offsets[e + 1] += net_offsets[e];
  return Hypergraph(static_cast<NodeID>(f.n), std::move(net_offsets), std::move(pins),
                    std::move(net_weights), 1, std::move(vertex_weights));
}

} // namespace

Hypergraph read_hmetis(const std::string& path, const ReadOptions& options) {
  return parse_whole_file(path, options.threads,
                          [](const InputBuffer& in) { return parse_hmetis(in); });
}

} // namespace gnnpart::io
