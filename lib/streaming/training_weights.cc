#include "streaming/training_weights.h"

#include "core/errors.h"
#include "streaming/file_source.h"
#include "streaming/scoring.h"
#include "streaming/text_parse.h"

namespace gnnpart::streaming {

std::vector<NodeID> read_training_ids(const std::string& path, NodeID n) {
  FileSource source(path);
  LineReader lines(source);
  std::vector<NodeID> ids;
  std::string_view line;
  while (lines.next(line)) {
    std::size_t pos = 0;
    skip_separators(line, pos);
    if (pos >= line.size() || line[pos] == '#' || line[pos] == '%')
      continue;
    std::uint64_t id = 0;
    if (!parse_unsigned(line, pos, id) || !at_end(line, pos)) {
      throw InputError(path, lines.line_number(), "expected one non-negative vertex id");
    }
    if (id >= n) {
      throw InputError(path, lines.line_number(),
                       "vertex id " + std::to_string(id) + " >= n = " + std::to_string(n));
    }
    ids.push_back(static_cast<NodeID>(id));
  }
  return ids;
}

std::vector<float> minibatch_net_weights(VertexStream& stream, const std::vector<NodeID>& train,
                                         std::uint64_t batch_size) {
  const NodeID n = stream.num_nodes();
  std::vector<bool> is_train(n, false);
  for (const NodeID v : train)
    is_train[v] = true;
  double total = 0;
  for (NodeID v = 0; v < n; ++v)
    total += is_train[v] ? 1 : 0;
  std::vector<float> weights(n, 0.0f);
  VertexBatch batch;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    for (NodeID i = 0; i < batch.size(); ++i) {
      const NodeID v = batch.first + i;
      double pins = is_train[v] ? 1 : 0;
      for (const NodeID u : batch.neighbors(i))
        pins += is_train[u] ? 1 : 0;
      weights[v] =
          static_cast<float>(minibatch_net_weight(pins, static_cast<double>(batch_size), total));
    }
  }
  stream.end_pass();
  return weights;
}

} // namespace gnnpart::streaming
