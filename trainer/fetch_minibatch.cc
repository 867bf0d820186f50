// The fetch mini-batch mode (DistDGL's scheme; the default). Per step, rank r:
//  1. draws min(B, |train_r|) seeds from its own training vertices (lib/cost/neighbor_sampling);
//  2. samples the computation graph top-down, F_L = seeds, F_l = F_{l+1} plus the layer-l
//     sample of every v in F_{l+1}. The layout has 1-hop halos only, so a frontier vertex owned
//     elsewhere is sampled by its owner: r sends the ids (grouped by owner, from the layout's
//     assignment.txt, the partition book every DistDGL trainer holds too) and the owner answers
//     with the sampled neighbours, drawn from r's stream, so the sample is the one r would draw;
//  3. fetches the input-feature rows of F_0 \ block r from their owners, once;
//  4. computes every layer for F_1 .. F_L locally and backpropagates without further traffic.
// All ranks take part in every all-to-all (MPI_Alltoall of counts, MPI_Alltoallv of data).
#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <stdexcept>

#include <time.h>

#include "cost/neighbor_sampling.h"
#include "io/graph_io.h"
#include "minibatch.h"
#include "run.h"
#include "sampled_layers.h"

namespace gnnpart::train {
namespace {

using Clock = std::chrono::steady_clock;
static_assert(sizeof(NodeID) == 4, "the all-to-alls send ids as MPI_UINT32_T");

std::size_t position(const std::vector<NodeID>& sorted, NodeID value) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), value) -
                                  sorted.begin());
}

template <class T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<NodeID>() {
  return MPI_UINT32_T;
}
template <> MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

// out[p] goes to rank p; returns in[p], what rank p sent here. Counts traffic (not to self).
// CPU seconds spent inside the all-to-alls' MPI calls (polling counts as CPU time).
thread_local double mpi_cpu_seconds = 0;

template <class T>
std::vector<std::vector<T>> all_to_all(const std::vector<std::vector<T>>& out, MPI_Comm comm,
                                       int rank, CommStats& stats) {
  const int size = static_cast<int>(out.size());
  std::vector<int> send_counts(size), recv_counts(size), send_displs(size), recv_displs(size);
  std::vector<T> flat;
  std::size_t total = 0;
  for (const std::vector<T>& part : out)
    total += part.size();
  flat.reserve(total);
  for (int p = 0; p < size; ++p) {
    send_displs[p] = static_cast<int>(flat.size());
    send_counts[p] = static_cast<int>(out[p].size());
    flat.insert(flat.end(), out[p].begin(), out[p].end());
  }
  const auto start = Clock::now();
  const double cpu_start = thread_cpu_seconds();
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  std::partial_sum(recv_counts.begin(), recv_counts.end() - 1, recv_displs.begin() + 1);
  std::vector<T> received(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  MPI_Alltoallv(flat.data(), send_counts.data(), send_displs.data(), mpi_type<T>(), received.data(),
                recv_counts.data(), recv_displs.data(), mpi_type<T>(), comm);
  stats.wait_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  mpi_cpu_seconds += thread_cpu_seconds() - cpu_start;
  std::vector<std::vector<T>> in(size);
  for (int p = 0; p < size; ++p) {
    in[p].assign(received.begin() + recv_displs[p],
                 received.begin() + recv_displs[p] + recv_counts[p]);
    if (p == rank)
      continue;
    stats.messages_sent += send_counts[p] > 0;
    stats.messages_received += recv_counts[p] > 0;
    stats.bytes_sent += static_cast<std::uint64_t>(send_counts[p]) * sizeof(T);
    stats.bytes_received += static_cast<std::uint64_t>(recv_counts[p]) * sizeof(T);
  }
  return in;
}

class FetchMode : public MinibatchMode {
public:
  FetchMode(const BlockData& data, const TrainOptions& options, MPI_Comm comm)
      : data_(data), options_(options), comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    const LayoutPlan& plan = data.plan;
    owner_ = io::read_partition(options.layout_dir + "/assignment.txt", plan.n,
                                static_cast<BlockID>(size_))
                 .blocks;
    // Owned rows' adjacency as sorted global ids (the order the sampler needs).
    adjacency_offsets_.assign(1, 0);
    for (NodeID i = 0; i < plan.num_owned(); ++i) {
      if (owner_[plan.owned[i]] != static_cast<BlockID>(rank_))
        throw std::runtime_error("assignment.txt disagrees with the block's owned vertices");
      const std::size_t first = adjacency_.size();
      for (EdgeID e = plan.row_offsets[i]; e < plan.row_offsets[i + 1]; ++e) {
        const NodeID c = plan.columns[e];
        adjacency_.push_back(c < plan.num_owned() ? plan.owned[c]
                                                  : plan.halo[c - plan.num_owned()]);
      }
      std::sort(adjacency_.begin() + static_cast<std::ptrdiff_t>(first), adjacency_.end());
      adjacency_offsets_.push_back(adjacency_.size());
    }
    for (NodeID i : data.train)
      train_.push_back(plan.owned[i]);
    const std::uint64_t mine = train_.size();
    train_counts_.resize(size_);
    MPI_Allgather(&mine, 1, MPI_UINT64_T, train_counts_.data(), 1, MPI_UINT64_T, comm);
    seeds_total_ = 0;
    std::uint64_t train_total = 0;
    for (std::uint64_t t : train_counts_) {
      seeds_total_ += std::min<std::uint64_t>(t, options.batch_size);
      train_total += t;
    }
    batches_ = cost::fetch_batches_per_epoch(train_total, size_, options.batch_size);
  }

  std::uint64_t batches_per_epoch() const override { return batches_; }

  BatchStep step(int epoch, std::uint64_t batch, const std::vector<Layer>& layers) override {
    BatchStep out;
    out.seeds_total = seeds_total_;
    const std::size_t num_layers = options_.fanouts.size();
    if (layers.size() != num_layers)
      throw std::logic_error("one fanout per layer");
    using cost::StepPart;
    const double cpu_start = thread_cpu_seconds();
    mpi_cpu_seconds = 0;
    const std::uint64_t stream = cost::batch_stream(options_.seed, epoch, batch, rank_);
    std::vector<std::vector<NodeID>> frontier(num_layers + 1);
    std::vector<SampledEdges> edges;
    edges.resize(num_layers);
    frontier[num_layers] = cost::draw_seeds(train_, options_.batch_size, stream);
    for (std::size_t l = num_layers; l-- > 0;)
      sample_layer(epoch, batch, l, frontier[l + 1], frontier[l], edges[l], out.stats);
    out.seeds = frontier[num_layers];
    const double cpu_sampled = thread_cpu_seconds();
    out.cpu[static_cast<std::size_t>(StepPart::kSampling)] =
        cpu_sampled - cpu_start - mpi_cpu_seconds;
    mpi_cpu_seconds = 0;
    Matrix x = fetch_inputs(frontier[0], out);
    const double cpu_fetched = thread_cpu_seconds();
    out.cpu[static_cast<std::size_t>(StepPart::kFetch)] =
        cpu_fetched - cpu_sampled - mpi_cpu_seconds;

    std::vector<std::int64_t> labels;
    for (NodeID u : out.seeds)
      labels.push_back(data_.labels[position(data_.plan.owned, u)]);
    SampledPass pass =
        sampled_forward_backward(edges, x, labels, layers, 1.0 / static_cast<double>(seeds_total_));
    out.grads = std::move(pass.grads);
    out.loss = pass.loss;
    out.cpu[static_cast<std::size_t>(StepPart::kLayers)] = thread_cpu_seconds() - cpu_fetched;
    return out;
  }

private:
  const NodeID* owned_adjacency(NodeID u, std::size_t& degree) const {
    const std::size_t i = position(data_.plan.owned, u);
    degree = adjacency_offsets_[i + 1] - adjacency_offsets_[i];
    return adjacency_.data() + adjacency_offsets_[i];
  }

  // The layer-l sample of every vertex of `targets` (F_{l+1}); `inputs` becomes F_l.
  void sample_layer(int epoch, std::uint64_t batch, std::size_t l,
                    const std::vector<NodeID>& targets, std::vector<NodeID>& inputs,
                    SampledEdges& edges, CommStats& stats) {
    const std::uint32_t fanout = options_.fanouts[l];
    std::vector<std::vector<NodeID>> requests(size_);
    for (NodeID v : targets) {
      if (owner_[v] != static_cast<BlockID>(rank_))
        requests[owner_[v]].push_back(v);
    }
    // Answer the others' requests: per requested vertex its count, then its sample.
    const auto asked = all_to_all(requests, comm_, rank_, stats);
    std::vector<std::vector<NodeID>> answers(size_);
    for (int p = 0; p < size_; ++p) {
      const std::uint64_t theirs = cost::batch_stream(options_.seed, epoch, batch, p);
      for (NodeID v : asked[p]) {
        if (owner_[v] != static_cast<BlockID>(rank_))
          throw std::runtime_error("sampling request for a vertex owned elsewhere");
        std::size_t degree = 0;
        const NodeID* nb = owned_adjacency(v, degree);
        const std::size_t at = answers[p].size();
        answers[p].push_back(0);
        cost::sample_neighbors({nb, degree}, fanout, theirs, l, v, answers[p]);
        answers[p][at] = static_cast<NodeID>(answers[p].size() - at - 1);
      }
    }
    const auto replies = all_to_all(answers, comm_, rank_, stats);
    const std::uint64_t stream = cost::batch_stream(options_.seed, epoch, batch, rank_);
    std::vector<std::size_t> cursor(size_, 0);
    std::vector<NodeID> picked;
    std::vector<std::size_t> picked_offsets{0};
    for (NodeID v : targets) {
      const BlockID p = owner_[v];
      if (p == static_cast<BlockID>(rank_)) {
        std::size_t degree = 0;
        const NodeID* nb = owned_adjacency(v, degree);
        cost::sample_neighbors({nb, degree}, fanout, stream, l, v, picked);
      } else {
        const std::vector<NodeID>& r = replies[p];
        const std::size_t count = r.at(cursor[p]);
        picked.insert(picked.end(), r.begin() + cursor[p] + 1, r.begin() + cursor[p] + 1 + count);
        cursor[p] += count + 1;
      }
      picked_offsets.push_back(picked.size());
    }
    inputs = targets;
    inputs.insert(inputs.end(), picked.begin(), picked.end());
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    edges = SampledEdges{};
    for (std::size_t t = 0; t < targets.size(); ++t) {
      edges.inputs.push_back(position(inputs, targets[t]));
      for (std::size_t i = picked_offsets[t]; i < picked_offsets[t + 1]; ++i)
        edges.inputs.push_back(position(inputs, picked[i]));
      edges.offsets.push_back(edges.inputs.size());
    }
  }

  // The input rows of F_0: owned ones copied, remote ones fetched from their owners.
  Matrix fetch_inputs(const std::vector<NodeID>& frontier, BatchStep& out) {
    const std::size_t width = data_.features.cols;
    std::vector<std::vector<NodeID>> wanted(size_);
    for (NodeID u : frontier) {
      if (owner_[u] != static_cast<BlockID>(rank_)) {
        wanted[owner_[u]].push_back(u);
        out.fetched.push_back(u);
      }
    }
    const auto asked = all_to_all(wanted, comm_, rank_, out.stats);
    std::vector<std::vector<double>> rows(size_);
    for (int p = 0; p < size_; ++p) {
      rows[p].reserve(asked[p].size() * width);
      for (NodeID u : asked[p]) {
        const double* row = data_.features.row(position(data_.plan.owned, u));
        rows[p].insert(rows[p].end(), row, row + width);
      }
      out.stats.rows_sent += asked[p].size();
    }
    const auto received = all_to_all(rows, comm_, rank_, out.stats);
    Matrix x(frontier.size(), width);
    std::vector<std::size_t> cursor(size_, 0);
    for (std::size_t i = 0; i < frontier.size(); ++i) {
      const NodeID u = frontier[i];
      const BlockID p = owner_[u];
      const double* row = p == static_cast<BlockID>(rank_)
                              ? data_.features.row(position(data_.plan.owned, u))
                              : received[p].data() + (cursor[p]++) * width;
      std::copy(row, row + width, x.row(i));
    }
    for (int p = 0; p < size_; ++p) {
      if (p == rank_)
        continue;
      if (received[p].size() != cursor[p] * width)
        throw std::runtime_error("fetched rows do not match the request");
      out.rows += cursor[p];
    }
    out.stats.rows_received += out.rows;
    std::sort(out.fetched.begin(), out.fetched.end());
    return x;
  }

  const BlockData& data_;
  const TrainOptions& options_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<BlockID> owner_;
  std::vector<std::size_t> adjacency_offsets_;
  std::vector<NodeID> adjacency_;
  std::vector<NodeID> train_;
  std::vector<std::uint64_t> train_counts_;
  std::uint64_t seeds_total_ = 0, batches_ = 1;
};

} // namespace

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::unique_ptr<MinibatchMode> make_fetch_mode(const BlockData& data, const TrainOptions& options,
                                               MPI_Comm comm) {
  return std::make_unique<FetchMode>(data, options, comm);
}

} // namespace gnnpart::train
