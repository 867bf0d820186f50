#include "streaming/training_weights.h"

#include "core/errors.h"
#include "io/graph_io.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {

std::vector<NodeID> read_training_ids(const std::string& path, NodeID n) {
  return io::read_vertex_set(path, n); // the vertex-set grammar every path shares
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
