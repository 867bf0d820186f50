#include "calibrate.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <tuple>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "block_data.h"
#include "core/graph.h"
#include "core/random.h"
#include "cost/neighbor_sampling.h"
#include "cost/profile.h"
#include "gcn.h"
#include "halo_exchange.h"
#include "phase_clock.h"
#include "run.h"

namespace gnnpart::train {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 5;
constexpr int kDataTag = 21;
const std::vector<double> kWidths{4, 16, 64, 256, 512};
constexpr std::size_t kExchangeGapBytes = std::size_t{16} << 20;
constexpr double kExchangeGapSeconds = 0.01;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Mean without the lowest and highest fifth.
double trimmed_mean(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t cut = values.size() / 5;
  double sum = 0;
  for (std::size_t i = cut; i + cut < values.size(); ++i)
    sum += values[i];
  return sum / static_cast<double>(values.size() - 2 * cut);
}

// Every rank's time of one run of `body` (all ranks start together), on every rank.
std::vector<double> rank_times(MPI_Comm comm, const std::function<void()>& body) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  MPI_Barrier(comm);
  const auto start = Clock::now();
  body();
  double mine = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm);
  return all;
}

// Median over `repeats` of the slowest rank's time of `body` (all ranks start together).
double timed(MPI_Comm comm, const std::function<void()>& body, int repeats = kRepeats) {
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    MPI_Barrier(comm);
    const auto start = Clock::now();
    body();
    double mine = std::chrono::duration<double>(Clock::now() - start).count(), slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    samples.push_back(slowest);
  }
  return median(samples);
}

// What the trainer's kernels do between two exchanges, and between its last exchange and the
// gradient allreduce: write megabytes (the caches no longer hold what the exchange reads) for
// milliseconds (a token-bucket network has refilled its burst: tbf's 256 KiB at 1 Gbit/s takes
// 2.1 ms, while the 16 MiB write alone took 0.3-0.4 ms on the 2-core machine). Busy, as compute
// is: a sleeping rank may lose its core's clock or cache to others.
void exchange_gap(std::vector<double>& scratch, double value) {
  const auto start = Clock::now();
  std::fill(scratch.begin(), scratch.end(), value);
  while (std::chrono::duration<double>(Clock::now() - start).count() < kExchangeGapSeconds) {
  }
}

Matrix random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  Matrix m(rows, cols);
  Rng rng(seed);
  for (double& x : m.data)
    x = 2.0 * rng.uniform() - 1.0;
  return m;
}

// A block with no halo: `rows` vertices with `degree` random owned neighbours each, anywhere
// (band 0) or within `band` rows of the vertex (a read of a row read a few rows before: a
// cache hit).
BlockData synthetic_block(NodeID rows, NodeID degree, std::uint64_t seed, NodeID band = 0) {
  BlockData data;
  LayoutPlan& plan = data.plan;
  plan.k = 1;
  plan.n = rows;
  Rng rng(seed);
  plan.row_offsets.push_back(0);
  for (NodeID i = 0; i < rows; ++i) {
    std::vector<NodeID> row;
    const NodeID lo = band == 0 || i < band ? 0 : i - band;
    const NodeID hi = band == 0 ? rows : std::min(rows, i + band + 1);
    for (NodeID d = 0; d < degree; ++d)
      row.push_back(lo + static_cast<NodeID>(rng.below(hi - lo)));
    std::sort(row.begin(), row.end());
    plan.columns.insert(plan.columns.end(), row.begin(), row.end());
    plan.row_offsets.push_back(plan.columns.size());
    plan.owned.push_back(i);
    data.split.push_back(plan.row_offsets.back());
    data.self_weight.push_back(1.0 / (degree + 1.0));
  }
  data.weight.assign(plan.columns.size(), 1.0 / (degree + 1.0));
  return data;
}

cost::RateTable kernel_table(const std::function<double(double)>& seconds_per_unit) {
  cost::RateTable table;
  for (double w : kWidths)
    table.push_back({w, seconds_per_unit(w)});
  return table;
}

// Every rank sends `bytes` to every other rank and receives as much from each; wait with
// MPI_Waitall on the returned requests.
std::vector<MPI_Request> post_exchange(MPI_Comm comm, std::vector<char>& out, std::vector<char>& in,
                                       int bytes) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<MPI_Request> requests;
  for (int pass = 0; pass < 2; ++pass) { // receives first, then sends
    for (int peer = 0; peer < size; ++peer) {
      if (peer == rank)
        continue;
      requests.emplace_back();
      if (pass == 0)
        MPI_Irecv(in.data() + static_cast<std::size_t>(peer) * bytes, bytes, MPI_CHAR, peer,
                  kDataTag, comm, &requests.back());
      else
        MPI_Isend(out.data(), bytes, MPI_CHAR, peer, kDataTag, comm, &requests.back());
    }
  }
  return requests;
}

void all_exchange(MPI_Comm comm, std::vector<char>& out, std::vector<char>& in, int bytes) {
  std::vector<MPI_Request> requests = post_exchange(comm, out, in, bytes);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// Least-squares line through (x, y): returns {intercept, slope}.
std::pair<double, double> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / x.size();
    my += y[i] / y.size();
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;
  return {std::max(0.0, my - slope * mx), std::max(0.0, slope)};
}

// The zero test of the GEMMs when the zeros fall at random, half of the entries (as after dropout
// or a ReLU): H * W with such an H against the same product with each row's zeros grouped at
// its start (the same multiply-adds, a predictable branch), per entry of H, by cols(W).
double zero_test_seconds(MPI_Comm comm, std::size_t rows, std::size_t w) {
  const std::size_t a = 128;
  Matrix scattered = random_matrix(rows, a, 11);
  Matrix grouped = scattered;
  Rng rng(12);
  for (std::size_t i = 0; i < rows; ++i) {
    std::size_t zeros = 0;
    for (std::size_t k = 0; k < a; ++k) {
      if (rng.uniform() < 0.5) {
        scattered.at(i, k) = 0;
        ++zeros;
      }
    }
    for (std::size_t k = 0; k < zeros; ++k)
      grouped.at(i, k) = 0;
  }
  const Matrix weight = random_matrix(a, w, 13);
  const double random_zeros = timed(comm, [&] { multiply(scattered, weight); });
  const double grouped_zeros = timed(comm, [&] { multiply(grouped, weight); });
  return std::max(0.0, random_zeros - grouped_zeros) / (static_cast<double>(rows) * a);
}

// Written by the timed lookups below so that they are not optimised away.
volatile std::size_t lookup_sink = 0;

// The fetch mini-batches' sampling (fetch_minibatch.cc, sample_layer) on a graph of `rows`
// vertices with 16 random neighbours each: a frontier of rows / 4 vertices draws 10 neighbours
// of each (per neighbour drawn), then the frontier and the draws are merged, sorted and made
// unique, and every entry is looked up in the result (per entry).
void measure_sampling(MPI_Comm comm, NodeID rows, cost::CostProfile& p) {
  const NodeID n = std::max<NodeID>(rows, 64), degree = 16;
  const std::uint32_t fanout = 10;
  Rng rng(11);
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  for (NodeID u = 0; u < n; ++u) {
    std::vector<NodeID> row;
    for (NodeID d = 0; d < degree; ++d)
      row.push_back(static_cast<NodeID>(rng.below(n)));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    adjacency.insert(adjacency.end(), row.begin(), row.end());
    offsets.push_back(adjacency.size());
  }
  const CsrGraph graph(std::move(offsets), std::move(adjacency));
  std::vector<NodeID> frontier;
  for (NodeID i = 0; i < n / 4; ++i)
    frontier.push_back(static_cast<NodeID>(rng.below(n)));
  std::sort(frontier.begin(), frontier.end());
  frontier.erase(std::unique(frontier.begin(), frontier.end()), frontier.end());
  std::vector<NodeID> picked;
  std::uint64_t stream = 1;
  const double draw = timed(comm, [&] {
    picked.clear();
    ++stream;
    for (NodeID v : frontier)
      cost::sample_neighbors(graph.neighbors(v), fanout, stream, 0, v, picked);
  });
  p.sample_draw_s = draw / static_cast<double>(std::max<std::size_t>(picked.size(), 1));
  const double index = timed(comm, [&] {
    std::vector<NodeID> inputs = frontier;
    inputs.insert(inputs.end(), picked.begin(), picked.end());
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    std::size_t positions = 0;
    for (const auto* ids : {&frontier, &picked}) {
      for (NodeID v : *ids)
        positions += static_cast<std::size_t>(std::lower_bound(inputs.begin(), inputs.end(), v) -
                                              inputs.begin());
    }
    lookup_sink = positions;
  });
  p.sample_index_s = index / static_cast<double>(frontier.size() + picked.size());
}

void measure_kernels(MPI_Comm comm, NodeID rows, cost::CostProfile& p) {
  const NodeID degree = 8;
  // SpMM and its transpose on blocks of rows / 8 to 2 rows: once the operands (rows x width
  // doubles on every rank at once) outgrow the shared cache, a nonzero costs several times more.
  // Each size twice: columns anywhere (every read a miss once the operand outgrows the cache),
  // and columns within 16 rows of the row (every read a hit; the same rows, outputs and
  // nonzeros otherwise).
  for (const NodeID size :
       {std::max<NodeID>(rows / 8, 16), std::max<NodeID>(rows / 2, 32), rows, 2 * rows}) {
    if (!p.spmm_grid.rows.empty() && size <= p.spmm_grid.rows.back())
      continue; // tiny --calibrate-rows: sizes must increase
    for (const NodeID band : {NodeID{0}, NodeID{16}}) {
      const BlockData block = synthetic_block(size, degree, 7, band);
      const double nnz = static_cast<double>(block.plan.columns.size() + size);
      cost::RateGrid& forward = band == 0 ? p.spmm_grid : p.spmm_near_grid;
      cost::RateGrid& transposed = band == 0 ? p.spmm_transposed_grid : p.spmm_transposed_near_grid;
      forward.rows.push_back(size);
      forward.tables.push_back(kernel_table([&](double w) {
        const Matrix src = random_matrix(size, static_cast<std::size_t>(w), 1);
        Matrix out;
        return timed(comm, [&] { aggregate_owned(block, src, out); }) / (nnz * w);
      }));
      transposed.rows.push_back(size);
      transposed.tables.push_back(kernel_table([&](double w) {
        const Matrix dz = random_matrix(size, static_cast<std::size_t>(w), 1);
        Matrix out(size, static_cast<std::size_t>(w));
        return timed(comm, [&] { transpose_owned(block, dz, out); }) / (nnz * w);
      }));
    }
    if (size == rows)
      p.spmm = p.spmm_grid.tables.back(); // the single table older readers use
  }
  // The cache a core reads hits from (the model counts a read whose stack distance times the
  // row's bytes is below it as a hit).
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  p.reuse_cache_bytes = l2 > 0 ? static_cast<double>(l2) : 0.0;
  // GEMMs with 128-wide operands of rows / 2 rows: a block's size, so that the operands stream
  // from memory as the trainer's do (small ones that stay in cache ran 1.6x faster on PubMed's
  // shapes than the trainer's GEMMs).
  const std::size_t a = 128;
  auto gemm_rows = [&](double) { return std::max<std::size_t>(64, rows / 2); };
  p.gemm = kernel_table([&](double w) {
    const std::size_t n = gemm_rows(w);
    const Matrix h = random_matrix(n, a, 2), weight = random_matrix(a, w, 3);
    return timed(comm, [&] { multiply(h, weight); }) / (double(n) * a * w);
  });
  p.gemm_at_b = kernel_table([&](double w) {
    const std::size_t n = gemm_rows(w);
    const Matrix h = random_matrix(n, a, 4), g = random_matrix(n, w, 5);
    return timed(comm, [&] { multiply_at_b(h, g); }) / (double(n) * a * w);
  });
  p.gemm_a_bt = kernel_table([&](double w) {
    const std::size_t n = gemm_rows(w);
    const Matrix g = random_matrix(n, w, 6), weight = random_matrix(a, w, 7);
    return timed(comm, [&] { multiply_a_bt(g, weight); }) / (double(n) * a * w);
  });
  p.zero_test = kernel_table([&](double w) {
    return zero_test_seconds(comm, std::max<std::size_t>(64, rows / 2),
                             static_cast<std::size_t>(w));
  });
  // A copy plus a ReLU pass, counted as two entries each, on a hidden layer's 128 columns (a
  // matrix small enough for the allocator to reuse its memory, as the trainer's are).
  const Matrix z = random_matrix(rows, 128, 8);
  p.elementwise_s = timed(comm,
                          [&] {
                            Matrix h = z;
                            for (double& x : h.data)
                              x = x > 0 ? x : 0;
                          }) /
                    (2.0 * z.data.size());
  // The trainer's dropout (input layer: no mask kept) on dense rows, per entry.
  std::vector<NodeID> ids(rows);
  for (NodeID i = 0; i < rows; ++i)
    ids[i] = i;
  const Matrix dense = random_matrix(rows, 64, 10);
  const double dropout = timed(comm, [&] {
    Matrix h = dense;
    apply_dropout(h, nullptr, ids, 1, 0, 0, 0.5);
  });
  p.dropout_s = std::max(0.0, dropout / (rows * 64.0) - p.elementwise_s); // less the copy of h
  measure_sampling(comm, rows, p);
  std::vector<Layer> layers = init_layers({512, 256, 16}, 1);
  Adam adam(layers, 0.01);
  const std::vector<double> grads(parameter_count(layers), 1e-3);
  p.adam_s = timed(comm, [&] { adam.step(layers, grads); }) / grads.size();
}

// A plan for the trainer's HaloExchange: every rank owns `rows` rows and sends `sent` rows in
// all, spread evenly over the other ranks, each list a random increasing subset of its owned
// rows (a gather of scattered rows, as a partition's boundary is); it receives as many.
LayoutPlan exchange_plan(int rank, int size, NodeID rows, NodeID sent) {
  LayoutPlan plan;
  plan.k = static_cast<BlockID>(size);
  plan.block = static_cast<BlockID>(rank);
  plan.owned.resize(rows);
  for (NodeID i = 0; i < rows; ++i)
    plan.owned[i] = static_cast<NodeID>(rank) * rows + i;
  const NodeID per_peer = std::max<NodeID>(1, sent / static_cast<NodeID>(size - 1));
  plan.send_offsets.push_back(0);
  plan.recv_offsets.push_back(0);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank)
      continue;
    plan.neighbors.push_back(static_cast<BlockID>(peer));
    Rng rng(derive_seed(16, static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(peer)));
    NodeID needed = std::min(per_peer, rows);
    for (NodeID i = 0; i < rows && needed > 0; ++i) { // selection sampling: increasing ids
      if (rng.below(rows - i) < needed) {
        plan.send_local.push_back(i);
        --needed;
      }
    }
    plan.send_offsets.push_back(plan.send_local.size());
    for (NodeID j = 0; j < per_peer; ++j) {
      plan.recv_local.push_back(rows + static_cast<NodeID>(plan.halo.size()));
      plan.halo.push_back(static_cast<NodeID>(peer) * rows + j);
      plan.halo_owner.push_back(static_cast<BlockID>(peer));
    }
    plan.recv_offsets.push_back(plan.recv_local.size());
  }
  return plan;
}

// Pack, wait and unpack seconds per entry exchanged (rows x width, sent or received: the same
// here) of HaloExchange's forward and backward exchange, mean of the two, each phase the
// median over repeats of the slowest rank's. The rows to send are freshly written every time,
// as the GEMM's product or the gradient the trainer sends is; the exchange object and its
// buffers live on across repeats, as the trainer's do across layers and epochs.
std::array<double, 3> time_halo_exchange(MPI_Comm comm, const LayoutPlan& plan, std::size_t width) {
  HaloExchange exchange(plan, comm);
  PhaseClock clock;
  exchange.set_clock(&clock);
  const Matrix source = random_matrix(plan.num_owned(), width, 14);
  const Matrix halo_source = random_matrix(plan.num_halo(), width, 15);
  Matrix grad(plan.num_owned(), width);
  std::vector<double> scratch(kExchangeGapBytes / sizeof(double));
  std::array<std::vector<double>, 3> samples;
  for (int repeat = 0; repeat <= kRepeats; ++repeat) { // the first one warms up
    std::array<double, 3> mine{};
    for (const bool forward : {true, false}) {
      exchange_gap(scratch, static_cast<double>(repeat));
      Matrix rows = forward ? source : halo_source;
      MPI_Barrier(comm);
      clock.start(cost::Phase::kCopy);
      if (forward)
        exchange.begin_forward(rows);
      else
        exchange.begin_backward(rows);
      clock.enter(cost::Phase::kSpmmLocal);
      if (forward)
        exchange.end_forward();
      else
        exchange.end_backward(grad);
      const cost::PhaseSeconds phases = clock.stop();
      mine[0] += phases[cost::phase_index(cost::Phase::kPack)];
      mine[1] += phases[cost::phase_index(cost::Phase::kWait)];
      mine[2] += phases[cost::phase_index(cost::Phase::kUnpack)];
    }
    std::array<double, 3> slowest{};
    MPI_Allreduce(mine.data(), slowest.data(), 3, MPI_DOUBLE, MPI_MAX, comm);
    for (std::size_t i = 0; repeat > 0 && i < 3; ++i)
      samples[i].push_back(slowest[i]);
  }
  const double entries = 2.0 * static_cast<double>(plan.send_local.size()) * width;
  return {median(samples[0]) / entries, median(samples[1]) / entries, median(samples[2]) / entries};
}

// The trainer's own exchange on blocks of `rows` rows sending 1/128, 1/16, 1/4 and 3/4 of them, at
// widths 4, 16 and 128: per entry packed (gathering scattered rows, filling the receive
// buffer, posting), per byte waited (the transfer, which over shared memory the receiver
// copies inside MPI_Waitall, less the latency), per entry unpacked (a fresh halo matrix and
// the scattered copy, or the gradients added to scattered owned rows). By rows exchanged: the
// rows and buffers outgrow the caches.
void measure_halo_exchange(MPI_Comm comm, int size, NodeID rows, cost::CostProfile& p) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  for (const NodeID sent : {std::max<NodeID>(rows / 128, 4), std::max<NodeID>(rows / 16, 8),
                            std::max<NodeID>(rows / 4, 16), std::max<NodeID>(rows / 4 * 3, 32)}) {
    const LayoutPlan plan = exchange_plan(rank, size, rows, sent);
    const double exchanged = static_cast<double>(plan.send_local.size());
    if (!p.pack_grid.rows.empty() && exchanged <= p.pack_grid.rows.back())
      continue; // tiny --calibrate-rows: sizes must increase
    cost::RateTable pack, wait, unpack;
    for (const double w : {4.0, 16.0, 128.0}) {
      const std::array<double, 3> t = time_halo_exchange(comm, plan, static_cast<std::size_t>(w));
      const double messages = static_cast<double>(plan.neighbors.size());
      const double latency = messages * p.latency_s / (exchanged * w);
      pack.push_back({w, t[0]});
      wait.push_back({w, std::max(0.0, t[1] - latency) / sizeof(double)});
      unpack.push_back({w, t[2]});
    }
    for (auto [grid, table] :
         {std::pair{&p.pack_grid, &pack}, std::pair{&p.exchange_byte_grid, &wait},
          std::pair{&p.unpack_grid, &unpack}}) {
      grid->rows.push_back(exchanged);
      grid->tables.push_back(*table);
    }
  }
}

void measure_network(MPI_Comm comm, int size, NodeID rows, cost::CostProfile& p) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Latency: simultaneous ping-pongs of 8 bytes between ranks 2i and 2i+1.
  const int peer = (rank ^ 1) < size ? rank ^ 1 : -1;
  const int rounds = 200;
  char byte[8] = {};
  const double pingpong = timed(comm, [&] {
    for (int i = 0; i < rounds && peer >= 0; ++i) {
      if (rank % 2 == 0) {
        MPI_Send(byte, 8, MPI_CHAR, peer, kDataTag, comm);
        MPI_Recv(byte, 8, MPI_CHAR, peer, kDataTag, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(byte, 8, MPI_CHAR, peer, kDataTag, comm, MPI_STATUS_IGNORE);
        MPI_Send(byte, 8, MPI_CHAR, peer, kDataTag, comm);
      }
    }
  });
  p.latency_s = pingpong / (2.0 * rounds);
  // Streaming: all-to-all exchanges over message sizes; beta from the slope per byte sent.
  const std::vector<int> sizes{1 << 14, 1 << 17, 1 << 20, 1 << 22};
  std::vector<char> out(sizes.back(), 1), in(static_cast<std::size_t>(sizes.back()) * size);
  std::vector<double> x, y;
  for (int bytes : sizes) {
    x.push_back(static_cast<double>(bytes) * (size - 1));
    y.push_back(timed(comm, [&] { all_exchange(comm, out, in, bytes); }));
  }
  // Under load a late partner can make a small exchange slower than a large one and the fitted
  // slope zero or negative; the largest exchange's time per byte is then the (upper) estimate.
  p.seconds_per_byte = fit_line(x, y).second;
  if (!(p.seconds_per_byte > 0))
    p.seconds_per_byte = y.back() / x.back();
  // Sharing: the all-to-all of 1 MiB per pair (every rank sends and receives size - 1 MiB)
  // against rank 0 sending size - 1 MiB to rank 1 alone (the same bytes at the busiest rank, 1 /
  // size of the total). Links of each rank's own take the same time for both; one medium that
  // all bytes cross (a rate-limited loopback) takes `size` times as long for the all-to-all.
  {
    const int bytes = 1 << 20;
    const int lone_bytes = (size - 1) * bytes;
    std::vector<char> lone(rank < 2 ? static_cast<std::size_t>(lone_bytes) : 0);
    const double all = timed(comm, [&] { all_exchange(comm, out, in, bytes); });
    const double one = timed(comm, [&] {
      if (rank == 0)
        MPI_Send(lone.data(), lone_bytes, MPI_CHAR, 1, kDataTag, comm);
      else if (rank == 1)
        MPI_Recv(lone.data(), lone_bytes, MPI_CHAR, 0, kDataTag, comm, MPI_STATUS_IGNORE);
    });
    p.shared_network = one > 0 ? std::clamp((all / one - 1) / (size - 1), 0.0, 1.0) : 0.0;
  }
  // Overlap: an exchange of 1 MiB posted before a local SpMM of about the exchange's length.
  const int bytes = 1 << 20;
  const double exchange_alone = timed(comm, [&] { all_exchange(comm, out, in, bytes); });
  const BlockData block = synthetic_block(rows, 8, 9);
  const double per_column = timed(comm, [&] {
    Matrix o;
    aggregate_owned(block, random_matrix(block.plan.num_owned(), 1, 1), o);
  });
  const std::size_t width = std::clamp<std::size_t>(exchange_alone / per_column, 1, 512);
  const Matrix src = random_matrix(block.plan.num_owned(), width, 2);
  Matrix o;
  const double compute_alone = timed(comm, [&] { aggregate_owned(block, src, o); });
  const double both = timed(comm, [&] {
    std::vector<MPI_Request> requests = post_exchange(comm, out, in, bytes);
    aggregate_owned(block, src, o);
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  });
  p.overlap = std::clamp((compute_alone + exchange_alone - both) / compute_alone, 0.0, 1.0);
  // Synchronisation: rounds of compute, each ending in a tiny exchange, against the same rounds
  // alone, at three segment lengths (about 2, 10 and 50 ms). On an idle machine they take the
  // same time; where other jobs share the cores, a rank that waits yields its core and a partner
  // can be descheduled, so every synchronisation costs extra: sync_wait_s + sync_jitter x the
  // segment's compute, a line fitted through the three lengths. 15 alternations of each,
  // compared by means without the fastest and slowest fifth (the load changes from second to
  // second). A share alone, measured on 10 ms SpMM segments (memory bound, more variable than
  // the trainer's GEMM and dropout), gave 0.13, 0.54 and 0.29 in calibrations minutes apart at
  // load 13-17, the last two 4-5 times the waits the trainer then measured.
  const int sync_rounds = 4;
  std::vector<double> lengths, extra;
  // The same rounds without synchronisation give the ranks' speed spread (rank_spread): the
  // relative standard deviation of the ranks' times for equal work, pooled over every round
  // (untrimmed: the slow rank of a round is what a synchronising trainer waits for).
  double spread_squares = 0;
  int spread_samples = 0;
  // Segments of dense H * W (the trainer's segments are mostly its GEMMs and dropout: compute,
  // not memory, bound), rows sized for the target length.
  const Matrix weight = random_matrix(128, 128, 4);
  const Matrix probe = random_matrix(256, 128, 5);
  const double per_row = timed(comm, [&] { multiply(probe, weight); }) / 256;
  for (const double target : {0.002, 0.01, 0.05}) {
    const Matrix h = random_matrix(std::max<std::size_t>(1, target / per_row), 128, 3);
    std::vector<double> alone, synced;
    for (int repeat = 0; repeat < 3 * kRepeats; ++repeat) {
      const std::vector<double> times = rank_times(comm, [&] {
        for (int i = 0; i < sync_rounds; ++i)
          multiply(h, weight);
      });
      alone.push_back(*std::max_element(times.begin(), times.end()));
      // The ranks did equal work: their spread is the spread of their speeds.
      const double mean = std::accumulate(times.begin(), times.end(), 0.0) / times.size();
      double squares = 0;
      for (const double t : times)
        squares += (t / mean - 1) * (t / mean - 1);
      spread_squares += squares / static_cast<double>(times.size() - 1);
      ++spread_samples;
      synced.push_back(timed(
          comm,
          [&] {
            for (int i = 0; i < sync_rounds; ++i) {
              multiply(h, weight);
              all_exchange(comm, out, in, 8);
            }
          },
          1));
    }
    const double base = trimmed_mean(alone);
    lengths.push_back(base / sync_rounds);
    extra.push_back((trimmed_mean(synced) - base) / sync_rounds - p.latency_s);
  }
  // Least squares with both terms >= 0: a line, else the better of a constant and a share.
  double mean_extra = 0, xy = 0, xx = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    mean_extra += extra[i] / lengths.size();
    xy += lengths[i] * extra[i];
    xx += lengths[i] * lengths[i];
  }
  p.rank_spread = std::min(1.0, std::sqrt(spread_squares / std::max(spread_samples, 1)));
  std::tie(p.sync_wait_s, p.sync_jitter) = fit_line(lengths, extra);
  if (p.sync_jitter == 0) // falling or flat: a constant
    p.sync_wait_s = std::max(0.0, mean_extra);
  else if (p.sync_wait_s == 0) // through the origin: a share
    p.sync_jitter = std::max(0.0, xy / xx);
  // The gradient allreduce by bytes, 8 B to 2 MiB around a GCN's gradient (feature dim 256,
  // hidden 128: 270 KB; 512 and 256: 1 MB), each after the gap the trainer's backward pass leaves
  // before it (a drained token bucket refilled: back-to-back allreduces, fitted with one line whose
  // intercept clamps at 0, priced the trainer's 270 KB at the drained rate: 4.35 ms predicted
  // against 2.40 measured per epoch on Cora, tcp, k = 2). The sum into a fresh vector, as the
  // trainer's.
  std::vector<double> ax, ay, scratch(kExchangeGapBytes / sizeof(double));
  std::vector<double> send(std::size_t{1} << 18);
  for (const int count : {1, 1 << 13, 1 << 15, 1 << 16, 1 << 17, 1 << 18}) {
    std::vector<double> samples;
    for (int repeat = 0; repeat <= kRepeats; ++repeat) { // the first one warms up
      std::fill(send.begin(), send.begin() + count, static_cast<double>(repeat));
      exchange_gap(scratch, static_cast<double>(repeat));
      MPI_Barrier(comm);
      const auto start = Clock::now();
      std::vector<double> receive(static_cast<std::size_t>(count));
      MPI_Allreduce(send.data(), receive.data(), count, MPI_DOUBLE, MPI_SUM, comm);
      double mine = std::chrono::duration<double>(Clock::now() - start).count(), slowest = 0;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
      if (repeat > 0)
        samples.push_back(slowest);
    }
    ax.push_back(count * 8.0);
    ay.push_back(median(samples));
  }
  // A larger allreduce never takes less time than a smaller one, so a size whose median exceeds
  // a larger size's was preempted (a busy machine: an 8-byte allreduce at 5.9 ms against 61 us
  // for 64 KiB on 2 loaded cores); it is bounded by the larger size's time.
  for (std::size_t i = ay.size() - 1; i-- > 0;)
    ay[i] = std::min(ay[i], ay[i + 1]);
  for (std::size_t i = 0; i < ax.size(); ++i)
    p.allreduce_table.push_back({ax[i], ay[i]});
  std::tie(p.allreduce_latency_s, p.allreduce_seconds_per_byte) = fit_line(ax, ay);
}

// Other work on the ranks' cores preempts them mid-measurement, and the profile then prices
// that load (seen: a profile calibrated at load 3-4 on 2 cores predicted 50 ms per mini-batch step
// against 3.4 ms measured). Rank 0 warns when any host's 1-minute load average exceeded its
// online CPUs before the calibration started.
void warn_if_busy(MPI_Comm comm) {
  double load = 0;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1)
      load = 0;
    std::fclose(f);
  }
  const double per_cpu = load / static_cast<double>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  double busiest = 0;
  MPI_Allreduce(&per_cpu, &busiest, 1, MPI_DOUBLE, MPI_MAX, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && busiest > 1.0)
    std::fprintf(stderr,
                 "gnnpart-train: warning: load average %.2f per CPU on the busiest host before "
                 "calibrating: other work shares the cores and the profile will price it; "
                 "calibrate on idle machines\n",
                 busiest);
}

} // namespace

int run_calibration(const TrainOptions& options, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (options.output.empty())
    throw ConfigError("--calibrate needs -o PROFILE.json");
  if (size < 2)
    throw ConfigError("--calibrate needs at least 2 ranks to measure the network");
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  cost::CostProfile p;
  p.name = host;
  p.source = "measured";
  p.transport = options.transport;
  p.ranks = size;
  warn_if_busy(comm);
  // --calibrate-repeats N: the whole measurement N times, each field's median kept (one run's
  // rank spread, sync wait and overlap vary widely between runs minutes apart on an idle
  // machine, and the mini-batch step's prediction with them).
  std::vector<cost::CostProfile> runs;
  for (std::uint32_t i = 0; i < options.calibrate_repeats; ++i) {
    cost::CostProfile run = p;
    measure_network(comm, size, options.calibrate_rows, run);
    measure_kernels(comm, options.calibrate_rows, run);
    measure_halo_exchange(comm, size, options.calibrate_rows, run);
    runs.push_back(std::move(run));
  }
  p = cost::median_profile(runs);
  if (rank == 0) {
    cost::write_profile(options.output, p);
    std::printf("gnnpart-train: calibrated %d ranks on %s: latency %.3g s, %.3g s/byte "
                "(%.2f GB/s), shared %.2f, sync wait %.3g s + jitter %.3f, rank spread %.3f, "
                "overlap %.2f, "
                "allreduce of 256 KiB %.3g s, SpMM %.3g s per nonzero x column at width 64\n",
                size, host, p.latency_s, p.seconds_per_byte,
                p.seconds_per_byte > 0 ? 1e-9 / p.seconds_per_byte : 0.0, p.shared_network,
                p.sync_wait_s, p.sync_jitter, p.rank_spread, p.overlap,
                cost::allreduce_seconds(p, 1 << 18), cost::rate_at(p.spmm, 64));
  }
  return 0;
}

} // namespace gnnpart::train
