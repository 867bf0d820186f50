// Mini-batch training (--batch-size B --fanouts f0,f1,...): sampled GCN layers with mean
// aggregation over {u} and up to f_l sampled neighbours of u. Per batch, every rank samples
// top-down for the targets it owns, asks the owners of sampled remote vertices for their rows
// (which adds those vertices to the owners' targets), then runs the layers bottom-up,
// exchanging only the requested rows; gradients of remote rows go back the same way.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "block_data.h"
#include "core/random.h"
#include "gcn.h"
#include "layout/layout_io.h"
#include "layout_warnings.h"
#include "run.h"

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
  std::vector<std::size_t> offsets;
  std::vector<std::size_t> inputs;
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
      level.offsets.assign(1, 0);
      for (std::size_t t = 0; t < above.targets.size(); ++t) {
        level.inputs.push_back(position(level.targets, above.targets[t]));
        for (NodeID local : picked[t]) {
          level.inputs.push_back(local < plan_.num_owned() ? position(level.targets, local)
                                                           : own + position(level.halo, local));
        }
        level.offsets.push_back(level.inputs.size());
      }
    }
  }

  // Forward and backward of the sampled batch; returns this rank's gradient share, the loss
  // sum and the correct count over its seeds.
  std::vector<double> step(const std::vector<Layer>& layers, double scale, double& loss,
                           std::uint64_t& correct) {
    const std::size_t num_layers = layers.size();
    std::vector<Matrix> agg(num_layers), z(num_layers);
    for (std::size_t l = 0; l < num_layers; ++l) {
      const Level& level = levels_[l];
      const std::size_t own = level.targets.size();
      Matrix x(own + level.halo.size(), l == 0 ? data_.features.cols : z[l - 1].cols);
      for (std::size_t i = 0; i < own; ++i) {
        if (l == 0) {
          std::copy(data_.features.row(level.targets[i]),
                    data_.features.row(level.targets[i]) + x.cols, x.row(i));
        } else {
          for (std::size_t j = 0; j < x.cols; ++j)
            x.at(i, j) = std::max(z[l - 1].at(i, j), 0.0);
        }
      }
      forward_exchange(level, x);
      const std::size_t outputs = level.offsets.size() - 1;
      agg[l] = Matrix(outputs, x.cols);
      for (std::size_t t = 0; t < outputs; ++t) {
        const double w = 1.0 / static_cast<double>(level.offsets[t + 1] - level.offsets[t]);
        for (std::size_t e = level.offsets[t]; e < level.offsets[t + 1]; ++e) {
          for (std::size_t j = 0; j < x.cols; ++j)
            agg[l].at(t, j) += w * x.at(level.inputs[e], j);
        }
      }
      z[l] = multiply(agg[l], layers[l].weight);
      for (std::size_t t = 0; t < outputs; ++t) {
        for (std::size_t j = 0; j < z[l].cols; ++j)
          z[l].at(t, j) += layers[l].bias[j];
      }
    }
    // Loss over the seeds (the targets of the top level, in their order).
    const std::vector<NodeID>& seeds = levels_[num_layers].targets;
    std::vector<std::int64_t> labels;
    for (NodeID u : seeds)
      labels.push_back(data_.labels[u]);
    std::vector<NodeID> rows(seeds.size());
    std::iota(rows.begin(), rows.end(), NodeID{0});
    Matrix dz(z.back().rows, z.back().cols);
    loss = softmax_cross_entropy(z.back(), labels, rows, scale, &dz);
    correct = count_correct(z.back(), labels, rows);

    std::vector<Matrix> dw(num_layers);
    std::vector<std::vector<double>> db(num_layers);
    for (std::size_t l = num_layers; l-- > 0;) {
      dw[l] = multiply_at_b(agg[l], dz);
      db[l].assign(dz.cols, 0.0);
      for (std::size_t t = 0; t < dz.rows; ++t) {
        for (std::size_t j = 0; j < dz.cols; ++j)
          db[l][j] += dz.at(t, j);
      }
      if (l == 0)
        break;
      const Level& level = levels_[l];
      const Matrix dagg = multiply_a_bt(dz, layers[l].weight);
      Matrix dx(level.targets.size() + level.halo.size(), dagg.cols);
      for (std::size_t t = 0; t + 1 < level.offsets.size(); ++t) {
        const double w = 1.0 / static_cast<double>(level.offsets[t + 1] - level.offsets[t]);
        for (std::size_t e = level.offsets[t]; e < level.offsets[t + 1]; ++e) {
          for (std::size_t j = 0; j < dx.cols; ++j)
            dx.at(level.inputs[e], j) += w * dagg.at(t, j);
        }
      }
      backward_exchange(level, dx);
      dz = Matrix(level.targets.size(), dx.cols);
      for (std::size_t i = 0; i < dz.rows; ++i) {
        for (std::size_t j = 0; j < dz.cols; ++j) {
          dz.at(i, j) = z[l - 1].at(i, j) > 0 ? dx.at(i, j) : 0.0;
        }
      }
    }
    std::vector<double> grads;
    for (std::size_t l = 0; l < num_layers; ++l) {
      grads.insert(grads.end(), dw[l].data.begin(), dw[l].data.end());
      grads.insert(grads.end(), db[l].begin(), db[l].end());
    }
    return grads;
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

} // namespace

int run_minibatch(const TrainOptions& options, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (options.fanouts.empty())
    throw ConfigError("--batch-size needs --fanouts");
  if (options.verify)
    throw ConfigError("--verify checks full-batch training only");
  const io::LayoutManifest manifest = read_manifest(options.layout_dir);
  if (manifest.kind != "vertex" || manifest.k != static_cast<BlockID>(size)) {
    throw ConfigError(
        fmt::format("{}: need a vertex layout with {} blocks", options.layout_dir, size));
  }
  TrainOptions opts = options;
  opts.layers = static_cast<int>(options.fanouts.size());
  const BlockData data = load_block(opts.layout_dir, static_cast<BlockID>(rank), opts);
  warn_about_layout_gaps(data, opts, comm);
  std::int64_t max_label = 0, classes = 0;
  for (std::int64_t y : data.labels)
    max_label = std::max(max_label, y);
  MPI_Allreduce(&max_label, &classes, 1, MPI_INT64_T, MPI_MAX, comm);
  classes = std::max<std::int64_t>(classes + 1, 2);
  std::vector<std::uint32_t> widths{static_cast<std::uint32_t>(data.features.cols)};
  for (int l = 1; l < opts.layers; ++l)
    widths.push_back(opts.hidden);
  widths.push_back(static_cast<std::uint32_t>(classes));
  std::vector<Layer> layers = init_layers(widths, opts.seed);
  Adam adam(layers, opts.lr);

  // Every rank knows every training vertex, so all cut the same batches.
  std::vector<std::uint64_t> mine;
  for (NodeID i : data.train)
    mine.push_back(data.plan.owned[i]);
  int my_count = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  std::vector<std::uint64_t> train(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), my_count, MPI_UINT64_T, train.data(), counts.data(), displs.data(),
                 MPI_UINT64_T, comm);
  std::sort(train.begin(), train.end());
  if (train.empty())
    throw ConfigError("the layout has no training vertices");

  BatchRunner runner(data, opts, comm);
  std::vector<std::uint64_t> rows_per_batch;
  std::vector<std::vector<RankEpoch>> batches;
  std::vector<double> batch_seconds;
  double last_loss = 0;
  for (int epoch = 0; epoch < opts.epochs; ++epoch) {
    std::vector<std::uint64_t> order = train;
    std::shuffle(order.begin(), order.end(), Rng(derive_seed(opts.seed, 2, epoch)));
    double epoch_loss = 0;
    for (std::size_t begin = 0, b = 0; begin < order.size(); begin += opts.batch_size, ++b) {
      const std::size_t end = std::min<std::size_t>(order.size(), begin + opts.batch_size);
      std::vector<NodeID> seeds;
      for (std::size_t i = begin; i < end; ++i) {
        const auto it = std::lower_bound(data.plan.owned.begin(), data.plan.owned.end(), order[i]);
        if (it != data.plan.owned.end() && *it == order[i]) {
          seeds.push_back(static_cast<NodeID>(it - data.plan.owned.begin()));
        }
      }
      std::sort(seeds.begin(), seeds.end());
      const auto start = Clock::now();
      runner.sample(seeds, derive_seed(opts.seed, 3, epoch, b));
      double loss = 0;
      std::uint64_t correct = 0;
      std::vector<double> grads = runner.step(layers, 1.0 / (end - begin), loss, correct);
      grads.push_back(loss);
      std::vector<double> summed(grads.size());
      const auto reduce_start = Clock::now();
      MPI_Allreduce(grads.data(), summed.data(), static_cast<int>(grads.size()), MPI_DOUBLE,
                    MPI_SUM, comm);
      const double reduce_seconds =
          std::chrono::duration<double>(Clock::now() - reduce_start).count();
      epoch_loss += summed.back() / order.size();
      summed.pop_back();
      for (std::size_t i = 0; i < layers[0].weight.data.size(); ++i) {
        summed[i] += opts.weight_decay * layers[0].weight.data[i];
      }
      adam.step(layers, summed);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      const std::uint64_t rows = allreduce_sum({runner.forward_rows}, comm)[0];
      runner.forward_rows = 0;
      CommStats s = runner.rows_stats;
      s += runner.request_stats;
      runner.rows_stats = CommStats{};
      runner.request_stats = CommStats{};
      const RankEpoch me{
          static_cast<double>(s.bytes_sent),         static_cast<double>(s.bytes_received),
          static_cast<double>(s.messages_sent),      static_cast<double>(s.messages_received),
          seconds - s.wait_seconds - reduce_seconds, s.wait_seconds + reduce_seconds};
      std::vector<RankEpoch> all = gather_rank_epochs(me, comm);
      if (rank == 0) {
        rows_per_batch.push_back(rows);
        batches.push_back(std::move(all));
        batch_seconds.push_back(seconds);
      }
    }
    last_loss = epoch_loss;
    if (rank == 0 && (epoch % 20 == 0 || epoch + 1 == opts.epochs)) {
      std::printf("epoch %4d  loss %.4f  rows/batch (last) %llu\n", epoch, epoch_loss,
                  static_cast<unsigned long long>(rows_per_batch.back()));
    }
  }

  // Full-neighbourhood inference with the trained weights.
  TrainOptions eval = opts;
  eval.dropout = 0;
  HaloExchange exchange(data.plan, comm);
  DistributedGcn gcn(data, exchange, eval);
  const Matrix& logits = gcn.forward(layers, 0, false);
  const std::vector<std::uint64_t> correct =
      allreduce_sum({count_correct(logits, data.labels, data.test), data.test.size()}, comm);
  const double test_accuracy = correct[1] ? static_cast<double>(correct[0]) / correct[1] : 0;
  if (rank == 0) {
    double mean_rows = 0, mean_seconds = 0;
    for (std::uint64_t r : rows_per_batch)
      mean_rows += static_cast<double>(r);
    for (double s : batch_seconds)
      mean_seconds += s;
    mean_rows /= static_cast<double>(std::max<std::size_t>(rows_per_batch.size(), 1));
    mean_seconds /= static_cast<double>(std::max<std::size_t>(batch_seconds.size(), 1));
    const std::uint64_t full = manifest.predicted_rows_per_layer * opts.layers;
    // The stochastic model's expectation, when the layout was written for this batch size.
    const bool predicted = manifest.minibatch_batch_size == opts.batch_size;
    const std::string predicted_text =
        predicted ? fmt::format("{:.1f}", manifest.predicted_rows_per_batch)
                  : std::string("- (gnnpart layout --batch-size gives it)");
    std::printf("%s", fmt::format("gnnpart-train (mini-batch): {} on {} ranks, batch {}, fanouts "
                                  "{}, {} batches\n  rows per batch  measured {:.1f} (mean), "
                                  "predicted {}, full-batch epoch {}\n  test accuracy   {:.4f}\n",
                                  manifest.graph_name, size, opts.batch_size,
                                  fmt::join(opts.fanouts, ","), rows_per_batch.size(), mean_rows,
                                  predicted_text, full, test_accuracy)
                          .c_str());
    if (!opts.json.empty()) {
      JsonWriter json;
      json.add("layout", opts.layout_dir)
          .add("graph", manifest.graph_name)
          .add("ranks", static_cast<std::uint64_t>(size))
          .add("mode", std::string("mini-batch"))
          .add("batch_size", static_cast<std::uint64_t>(opts.batch_size))
          .add("epochs", static_cast<std::uint64_t>(opts.epochs))
          .add("measured_rows_per_batch", mean_rows)
          .add("measured_rows_by_batch", rows_per_batch)
          .add("predicted_rows_per_layer", manifest.predicted_rows_per_layer)
          .add("predicted_rows_per_batch", predicted ? manifest.predicted_rows_per_batch : -1.0)
          .add("full_batch_rows_per_epoch", full)
          .add("final_loss", last_loss)
          .add("test_accuracy", test_accuracy)
          .add("batch_time_s", mean_seconds)
          .add_raw("per_rank", rank_totals_json(batches));
      write_file_atomically(opts.json, json.str());
    }
  }
  return 0;
}

} // namespace gnnpart::train
