#include "fetch_reference.h"

#include <algorithm>

#include "cost/minibatch_rows.h"
#include "cost/neighbor_sampling.h"

namespace gnnpart::train {

SampledPass fetch_reference_step(const GlobalProblem& problem, const Partition& partition,
                                 const std::vector<Layer>& layers, const TrainOptions& options,
                                 int epoch, std::uint64_t batch) {
  std::vector<std::vector<NodeID>> adjacency = problem.adjacency;
  for (auto& list : adjacency)
    std::sort(list.begin(), list.end());
  const auto train = cost::train_by_block(partition, problem.train);
  std::uint64_t seeds_total = 0;
  for (const auto& t : train)
    seeds_total += std::min<std::uint64_t>(t.size(), options.batch_size);
  const std::size_t num_layers = options.fanouts.size();
  SampledPass sum;
  for (BlockID r = 0; r < partition.k; ++r) {
    const std::uint64_t stream = cost::batch_stream(options.seed, epoch, batch, r);
    // Levels top-down; targets[t]'s inputs are itself, then its sample.
    std::vector<std::vector<NodeID>> level(num_layers + 1);
    level[num_layers] = cost::draw_seeds(train[r], options.batch_size, stream);
    std::vector<SampledEdges> edges;
    edges.resize(num_layers);
    for (std::size_t l = num_layers; l-- > 0;) {
      std::vector<std::vector<NodeID>> picked;
      std::vector<NodeID> all = level[l + 1];
      for (NodeID v : level[l + 1]) {
        picked.emplace_back();
        cost::sample_neighbors(adjacency[v], options.fanouts[l], stream, l, v, picked.back());
        all.insert(all.end(), picked.back().begin(), picked.back().end());
      }
      std::sort(all.begin(), all.end());
      all.erase(std::unique(all.begin(), all.end()), all.end());
      auto at = [&](NodeID u) {
        return static_cast<std::size_t>(std::lower_bound(all.begin(), all.end(), u) - all.begin());
      };
      for (std::size_t t = 0; t < level[l + 1].size(); ++t) {
        edges[l].inputs.push_back(at(level[l + 1][t]));
        for (NodeID u : picked[t])
          edges[l].inputs.push_back(at(u));
        edges[l].offsets.push_back(edges[l].inputs.size());
      }
      level[l] = std::move(all);
    }
    Matrix x(level[0].size(), problem.features.cols);
    for (std::size_t i = 0; i < level[0].size(); ++i)
      std::copy(problem.features.row(level[0][i]), problem.features.row(level[0][i]) + x.cols,
                x.row(i));
    std::vector<std::int64_t> labels;
    for (NodeID u : level[num_layers])
      labels.push_back(problem.labels[u]);
    const SampledPass pass = sampled_forward_backward(
        edges, x, labels, layers,
        1.0 / static_cast<double>(std::max<std::uint64_t>(1, seeds_total)));
    if (sum.grads.empty())
      sum.grads.assign(pass.grads.size(), 0.0);
    for (std::size_t i = 0; i < pass.grads.size(); ++i)
      sum.grads[i] += pass.grads[i];
    sum.loss += pass.loss;
  }
  return sum;
}

} // namespace gnnpart::train
