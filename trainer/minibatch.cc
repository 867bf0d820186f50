// The layerwise mini-batch mode (--minibatch-mode layerwise): sampled GCN layers with mean
// aggregation over {u} and up to f_l sampled neighbours of u. Per batch, every rank samples
// top-down for the targets it owns, asks the owners of sampled remote vertices for their rows
// (which adds those vertices to the owners' targets), then runs the layers bottom-up,
// exchanging only the requested rows; gradients of remote rows go back the same way.
#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "block_data.h"
#include "core/random.h"
#include "minibatch.h"
#include "sampled_layers.h"

namespace gnnpart::train {
namespace {

using Clock = std::chrono::steady_clock;

// What one level l (the input rows of layer l) holds on this rank.
struct Level {
  std::vector<NodeID> targets;            // owned local ids whose h^l is computed here, sorted
  std::vector<NodeID> halo;               // halo slots whose h^l is received, sorted
  std::vector<std::vector<NodeID>> sends; // per neighbour: owned local ids it asked for
  std::vector<std::size_t> recv_begin;    // per neighbour: range of `halo` it fills
  std::vector<std::size_t> recv_end;
  // Sampled inputs of the next level's targets: positions in [targets ++ halo].
  SampledEdges edges;
};

std::size_t position(const std::vector<NodeID>& sorted, NodeID value) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), value) -
                                  sorted.begin());
}

class BatchRunner {
public:
  BatchRunner(const BlockData& data, const TrainOptions& options, MPI_Comm comm)
      : data_(data), plan_(data.plan), options_(options), comm_(comm) {}

  // Samples the computation graph of one batch (seeds: owned local ids).
  void sample(const std::vector<NodeID>& seeds, std::uint64_t batch_seed) {
    const std::size_t layers = options_.fanouts.size();
    levels_.assign(layers + 1, Level());
    levels_[layers].targets = seeds;
    for (std::size_t l = layers; l-- > 0;) {
      Level& level = levels_[l];
      const Level& above = levels_[l + 1];
      std::vector<std::vector<NodeID>> picked(above.targets.size());
      std::vector<NodeID> owned = above.targets;
      std::vector<NodeID> halo;
      for (std::size_t t = 0; t < above.targets.size(); ++t) {
        const NodeID u = above.targets[t];
        // Candidates in global-id order, so the sample does not depend on the partition.
        std::vector<std::pair<NodeID, NodeID>> candidates;
        for (EdgeID e = plan_.row_offsets[u]; e < plan_.row_offsets[u + 1]; ++e) {
          candidates.emplace_back(global(plan_.columns[e]), plan_.columns[e]);
        }
        std::sort(candidates.begin(), candidates.end());
        Rng rng(derive_seed(batch_seed, l, plan_.owned[u]));
        const std::size_t take = std::min<std::size_t>(options_.fanouts[l], candidates.size());
        for (std::size_t i = 0; i < take; ++i) {
          std::swap(candidates[i], candidates[i + rng.below(candidates.size() - i)]);
          const NodeID local = candidates[i].second;
          picked[t].push_back(local);
          (local < plan_.num_owned() ? owned : halo).push_back(local);
        }
      }
      sort_unique(halo);
      level.halo = halo;
      // Requests: tell each owner which of its vertices we need at this level.
      exchange_requests(level, owned);
      sort_unique(owned);
      level.targets = owned;
      const std::size_t own = level.targets.size();
      for (std::size_t t = 0; t < above.targets.size(); ++t) {
        level.edges.inputs.push_back(position(level.targets, above.targets[t]));
        for (NodeID local : picked[t]) {
          level.edges.inputs.push_back(local < plan_.num_owned()
                                           ? position(level.targets, local)
                                           : own + position(level.halo, local));
        }
        level.edges.offsets.push_back(level.edges.inputs.size());
      }
    }
  }

  // Forward and backward of the sampled batch: this rank's gradient share and loss sum over
  // its seeds. Every layer's input gets its halo rows from their owners first, and their
  // gradients go back to the owners.
  SampledPass step(const std::vector<Layer>& layers, double scale) {
    const std::size_t num_layers = layers.size();
    std::vector<SampledEdges> edges;
    for (std::size_t l = 0; l < num_layers; ++l)
      edges.push_back(levels_[l].edges);
    const Level& bottom = levels_[0];
    Matrix x0(bottom.targets.size(), data_.features.cols);
    for (std::size_t i = 0; i < bottom.targets.size(); ++i) {
      std::copy(data_.features.row(bottom.targets[i]),
                data_.features.row(bottom.targets[i]) + x0.cols, x0.row(i));
    }
    std::vector<std::int64_t> labels;
    for (NodeID u : levels_[num_layers].targets)
      labels.push_back(data_.labels[u]);
    const auto gather = [&](std::size_t l, Matrix& x) {
      x.rows += levels_[l].halo.size();
      x.data.resize(x.rows * x.cols, 0.0);
      forward_exchange(levels_[l], x);
    };
    const auto scatter = [&](std::size_t l, Matrix& dx) {
      backward_exchange(levels_[l], dx);
      dx.rows = levels_[l].targets.size();
      dx.data.resize(dx.rows * dx.cols);
    };
    return sampled_forward_backward(edges, x0, labels, layers, scale, gather, scatter);
  }

  CommStats rows_stats;    // feature/gradient rows
  CommStats request_stats; // sampled-vertex requests (ids)
  std::uint64_t forward_rows = 0;

private:
  NodeID global(NodeID local) const {
    return local < plan_.num_owned() ? plan_.owned[local] : plan_.halo[local - plan_.num_owned()];
  }
  static void sort_unique(std::vector<NodeID>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }

  // Sends the global ids of `level.halo` to their owners; adds what others ask for to `owned`
  // and records it as the level's send lists.
  void exchange_requests(Level& level, std::vector<NodeID>& owned) {
    const std::size_t nb = plan_.neighbors.size();
    level.sends.assign(nb, {});
    level.recv_begin.assign(nb, 0);
    level.recv_end.assign(nb, 0);
    std::vector<std::vector<std::uint64_t>> out(nb), in(nb);
    std::vector<std::uint64_t> out_count(nb), in_count(nb);
    for (std::size_t i = 0, h = 0; i < nb; ++i) {
      level.recv_begin[i] = h;
      while (h < level.halo.size() &&
             plan_.halo_owner[level.halo[h] - plan_.num_owned()] == plan_.neighbors[i]) {
        out[i].push_back(global(level.halo[h]));
        ++h;
      }
      level.recv_end[i] = h;
      out_count[i] = out[i].size();
    }
    std::vector<MPI_Request> requests;
    requests.reserve(2 * nb);
    auto post = [&](std::vector<std::vector<std::uint64_t>>* send_data,
                    std::vector<std::vector<std::uint64_t>>* recv_data, int tag) {
      requests.clear();
      for (std::size_t i = 0; i < nb; ++i) {
        const int peer = static_cast<int>(plan_.neighbors[i]);
        requests.emplace_back();
        if (recv_data == nullptr) {
          MPI_Irecv(&in_count[i], 1, MPI_UINT64_T, peer, tag, comm_, &requests.back());
        } else {
          (*recv_data)[i].resize(in_count[i]);
          MPI_Irecv((*recv_data)[i].data(), static_cast<int>(in_count[i]), MPI_UINT64_T, peer, tag,
                    comm_, &requests.back());
        }
      }
      for (std::size_t i = 0; i < nb; ++i) {
        const int peer = static_cast<int>(plan_.neighbors[i]);
        requests.emplace_back();
        const std::uint64_t* buffer = send_data == nullptr ? &out_count[i] : (*send_data)[i].data();
        const int count = send_data == nullptr ? 1 : static_cast<int>((*send_data)[i].size());
        MPI_Isend(buffer, count, MPI_UINT64_T, peer, tag, comm_, &requests.back());
        request_stats.messages_sent += 1;
        request_stats.bytes_sent += count * sizeof(std::uint64_t);
      }
      const auto start = Clock::now();
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
      request_stats.wait_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    };
    post(nullptr, nullptr, 21);
    post(&out, &in, 22);
    for (std::size_t i = 0; i < nb; ++i) {
      for (std::uint64_t g : in[i]) {
        const auto it = std::lower_bound(plan_.owned.begin(), plan_.owned.end(), g);
        if (it == plan_.owned.end() || *it != g)
          throw std::runtime_error("request for a vertex not owned");
        const NodeID local = static_cast<NodeID>(it - plan_.owned.begin());
        level.sends[i].push_back(local);
        owned.push_back(local);
      }
    }
  }

  void post_rows(const std::vector<std::vector<double>>& out, std::vector<std::vector<double>>& in,
                 const std::vector<std::size_t>& in_rows, std::size_t width, int tag,
                 bool forward) {
    const std::size_t nb = plan_.neighbors.size();
    std::vector<MPI_Request> requests;
    std::vector<int> recv_index;
    for (std::size_t i = 0; i < nb; ++i) {
      in[i].resize(in_rows[i] * width);
      if (in[i].empty())
        continue;
      requests.emplace_back();
      recv_index.push_back(static_cast<int>(requests.size() - 1));
      MPI_Irecv(in[i].data(), static_cast<int>(in[i].size()), MPI_DOUBLE,
                static_cast<int>(plan_.neighbors[i]), tag, comm_, &requests.back());
    }
    for (std::size_t i = 0; i < nb; ++i) {
      if (out[i].empty())
        continue;
      requests.emplace_back();
      MPI_Isend(out[i].data(), static_cast<int>(out[i].size()), MPI_DOUBLE,
                static_cast<int>(plan_.neighbors[i]), tag, comm_, &requests.back());
      rows_stats.messages_sent += 1;
      rows_stats.bytes_sent += out[i].size() * sizeof(double);
      rows_stats.rows_sent += out[i].size() / width;
      if (forward)
        forward_rows += out[i].size() / width;
    }
    std::vector<MPI_Status> statuses(requests.size());
    const auto start = Clock::now();
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
    rows_stats.wait_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    for (int r : recv_index) {
      int elements = 0;
      MPI_Get_count(&statuses[r], MPI_DOUBLE, &elements);
      rows_stats.messages_received += 1;
      rows_stats.bytes_received += static_cast<std::uint64_t>(elements) * sizeof(double);
      rows_stats.rows_received += static_cast<std::uint64_t>(elements) / width;
    }
  }

  // Owners send the requested rows of x; the halo rows of x are filled.
  void forward_exchange(const Level& level, Matrix& x) {
    const std::size_t nb = plan_.neighbors.size(), w = x.cols, own = level.targets.size();
    std::vector<std::vector<double>> out(nb), in(nb);
    std::vector<std::size_t> in_rows(nb);
    for (std::size_t i = 0; i < nb; ++i) {
      for (NodeID local : level.sends[i]) {
        const double* row = x.row(position(level.targets, local));
        out[i].insert(out[i].end(), row, row + w);
      }
      in_rows[i] = level.recv_end[i] - level.recv_begin[i];
    }
    post_rows(out, in, in_rows, w, 23, true);
    for (std::size_t i = 0; i < nb; ++i) {
      std::copy(in[i].begin(), in[i].end(), x.row(own + level.recv_begin[i]));
    }
  }

  // Gradients of the halo rows go back to their owners, which add them.
  void backward_exchange(const Level& level, Matrix& dx) {
    const std::size_t nb = plan_.neighbors.size(), w = dx.cols, own = level.targets.size();
    std::vector<std::vector<double>> out(nb), in(nb);
    std::vector<std::size_t> in_rows(nb);
    for (std::size_t i = 0; i < nb; ++i) {
      out[i].assign(dx.row(own + level.recv_begin[i]), dx.row(own + level.recv_end[i]));
      in_rows[i] = level.sends[i].size();
    }
    post_rows(out, in, in_rows, w, 24, false);
    for (std::size_t i = 0; i < nb; ++i) {
      for (std::size_t r = 0; r < level.sends[i].size(); ++r) {
        double* row = dx.row(position(level.targets, level.sends[i][r]));
        for (std::size_t j = 0; j < w; ++j)
          row[j] += in[i][r * w + j];
      }
    }
  }

  const BlockData& data_;
  const LayoutPlan& plan_;
  const TrainOptions& options_;
  MPI_Comm comm_;
  std::vector<Level> levels_;
};

// Batches: consecutive slices of a seeded shuffle of all training vertices per epoch (every
// rank knows them all and keeps the seeds it owns).
class LayerwiseMode : public MinibatchMode {
public:
  LayerwiseMode(const BlockData& data, const TrainOptions& options, MPI_Comm comm)
      : data_(data), options_(options), runner_(data, options, comm) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<std::uint64_t> mine;
    for (NodeID i : data.train)
      mine.push_back(data.plan.owned[i]);
    int my_count = static_cast<int>(mine.size());
    std::vector<int> counts(size), displs(size);
    MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
    train_.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    MPI_Allgatherv(mine.data(), my_count, MPI_UINT64_T, train_.data(), counts.data(), displs.data(),
                   MPI_UINT64_T, comm);
    std::sort(train_.begin(), train_.end());
  }

  std::uint64_t batches_per_epoch() const override {
    return (train_.size() + options_.batch_size - 1) / options_.batch_size;
  }

  BatchStep step(int epoch, std::uint64_t b, const std::vector<Layer>& layers) override {
    if (epoch != order_epoch_) {
      order_ = train_;
      std::shuffle(order_.begin(), order_.end(), Rng(derive_seed(options_.seed, 2, epoch)));
      order_epoch_ = epoch;
    }
    const std::size_t begin = b * options_.batch_size;
    const std::size_t end = std::min<std::size_t>(order_.size(), begin + options_.batch_size);
    const std::vector<NodeID>& owned = data_.plan.owned;
    std::vector<NodeID> seeds;
    for (std::size_t i = begin; i < end; ++i) {
      const auto it = std::lower_bound(owned.begin(), owned.end(), order_[i]);
      if (it != owned.end() && *it == order_[i])
        seeds.push_back(static_cast<NodeID>(it - owned.begin()));
    }
    std::sort(seeds.begin(), seeds.end());
    runner_.sample(seeds, derive_seed(options_.seed, 3, epoch, b));
    BatchStep out;
    out.seeds_total = end - begin;
    SampledPass pass = runner_.step(layers, 1.0 / static_cast<double>(end - begin));
    out.grads = std::move(pass.grads);
    out.loss = pass.loss;
    out.rows = runner_.forward_rows;
    out.stats = runner_.rows_stats;
    out.stats += runner_.request_stats;
    runner_.forward_rows = 0;
    runner_.rows_stats = CommStats{};
    runner_.request_stats = CommStats{};
    return out;
  }

private:
  const BlockData& data_;
  const TrainOptions& options_;
  BatchRunner runner_;
  std::vector<std::uint64_t> train_, order_;
  int order_epoch_ = -1;
};

} // namespace

std::unique_ptr<MinibatchMode> make_layerwise_mode(const BlockData& data,
                                                   const TrainOptions& options, MPI_Comm comm) {
  return std::make_unique<LayerwiseMode>(data, options, comm);
}

} // namespace gnnpart::train
