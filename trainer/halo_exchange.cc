#include "halo_exchange.h"

#include <chrono>
#include <stdexcept>

namespace gnnpart::train {
namespace {
constexpr int kForwardTag = 11;
constexpr int kBackwardTag = 12;
} // namespace

CommStats& CommStats::operator+=(const CommStats& o) {
  bytes_sent += o.bytes_sent;
  bytes_received += o.bytes_received;
  messages_sent += o.messages_sent;
  messages_received += o.messages_received;
  rows_sent += o.rows_sent;
  rows_received += o.rows_received;
  wait_seconds += o.wait_seconds;
  return *this;
}

namespace {
// Whether receive entry r fills halo slot r, for every r and every slot.
bool receives_fill_halo_in_order(const LayoutPlan& plan) {
  if (plan.recv_local.size() != plan.num_halo())
    return false;
  for (std::size_t r = 0; r < plan.recv_local.size(); ++r) {
    if (plan.recv_local[r] != plan.num_owned() + r)
      return false;
  }
  return true;
}

// Sizes `m` as rows x cols without clearing it: the caller overwrites every entry. Storage is
// kept across calls, so a steady exchange neither allocates nor faults pages in.
void reshape(Matrix& m, std::size_t rows, std::size_t cols) {
  m.rows = rows;
  m.cols = cols;
  m.data.resize(rows * cols);
}
} // namespace

HaloExchange::HaloExchange(const LayoutPlan& plan, MPI_Comm comm)
    : plan_(plan), comm_(comm), receive_halo_in_place_(receives_fill_halo_in_order(plan)) {}

// Sends send_from sliced by out_offsets, receives into receive_into (in_offsets.back() x
// width entries) sliced by in_offsets. Every received slice is overwritten whole, so no buffer
// is cleared first.
void HaloExchange::post(const std::vector<EdgeID>& out_offsets,
                        const std::vector<EdgeID>& in_offsets, std::size_t width, int tag,
                        const double* send_from, double* receive_into) {
  requests_.clear();
  recv_request_index_.clear();
  width_ = width;
  const std::size_t count = plan_.neighbors.size();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t rows = in_offsets[i + 1] - in_offsets[i];
    if (rows == 0)
      continue;
    requests_.emplace_back();
    recv_request_index_.push_back(static_cast<int>(requests_.size() - 1));
    MPI_Irecv(receive_into + in_offsets[i] * width, static_cast<int>(rows * width),
              MPI_DOUBLE, static_cast<int>(plan_.neighbors[i]), tag, comm_, &requests_.back());
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t rows = out_offsets[i + 1] - out_offsets[i];
    if (rows == 0)
      continue;
    requests_.emplace_back();
    MPI_Isend(send_from + out_offsets[i] * width, static_cast<int>(rows * width),
              MPI_DOUBLE, static_cast<int>(plan_.neighbors[i]), tag, comm_, &requests_.back());
    stats_.messages_sent += 1;
    stats_.bytes_sent += rows * width * sizeof(double);
    stats_.rows_sent += rows;
    if (tag == kForwardTag)
      forward_rows_.back() += rows;
  }
}

void HaloExchange::wait(std::size_t width) {
  enter(clock_, cost::Phase::kWait);
  const auto start = std::chrono::steady_clock::now();
  std::vector<MPI_Status> statuses(requests_.size());
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses.data());
  stats_.wait_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int index : recv_request_index_) {
    int elements = 0;
    MPI_Get_count(&statuses[index], MPI_DOUBLE, &elements);
    stats_.messages_received += 1;
    stats_.bytes_received += static_cast<std::uint64_t>(elements) * sizeof(double);
    stats_.rows_received += width == 0 ? 0 : static_cast<std::uint64_t>(elements) / width;
  }
  enter(clock_, cost::Phase::kUnpack);
}

void HaloExchange::begin_forward(const Matrix& owned) {
  enter(clock_, cost::Phase::kPack);
  const std::size_t w = owned.cols;
  send_buffer_.resize(plan_.send_local.size() * w);
  for (std::size_t s = 0; s < plan_.send_local.size(); ++s) {
    const double* src = owned.row(plan_.send_local[s]);
    std::copy(src, src + w, send_buffer_.data() + s * w);
  }
  forward_rows_.push_back(0);
  reshape(halo_, plan_.num_halo(), w);
  double* receive_into = halo_.data.data();
  if (!receive_halo_in_place_) {
    recv_buffer_.resize(plan_.recv_local.size() * w);
    receive_into = recv_buffer_.data();
  }
  post(plan_.send_offsets, plan_.recv_offsets, w, kForwardTag, send_buffer_.data(), receive_into);
}

const Matrix& HaloExchange::end_forward() {
  wait(width_);
  if (receive_halo_in_place_)
    return halo_;
  // A plan whose receive lists do not fill the slots in order: copy, and zero what no
  // neighbour sends.
  const std::size_t w = width_;
  const NodeID own = plan_.num_owned();
  halo_.fill(0.0);
  for (std::size_t r = 0; r < plan_.recv_local.size(); ++r) {
    const double* src = recv_buffer_.data() + r * w;
    std::copy(src, src + w, halo_.row(plan_.recv_local[r] - own));
  }
  return halo_;
}

void HaloExchange::begin_backward(const Matrix& halo_grad) {
  enter(clock_, cost::Phase::kPack);
  const std::size_t w = halo_grad.cols;
  const double* send_from = halo_grad.data.data();
  if (!receive_halo_in_place_) {
    // The halo slots in the order of the receive lists, which the owners expect back.
    const NodeID own = plan_.num_owned();
    send_buffer_.resize(plan_.recv_local.size() * w);
    for (std::size_t r = 0; r < plan_.recv_local.size(); ++r) {
      const double* src = halo_grad.row(plan_.recv_local[r] - own);
      std::copy(src, src + w, send_buffer_.data() + r * w);
    }
    send_from = send_buffer_.data();
  }
  recv_buffer_.resize(plan_.send_local.size() * w);
  post(plan_.recv_offsets, plan_.send_offsets, w, kBackwardTag, send_from, recv_buffer_.data());
}

void HaloExchange::end_backward(Matrix& owned_grad) {
  wait(width_);
  const std::size_t w = width_;
  for (std::size_t s = 0; s < plan_.send_local.size(); ++s) {
    const double* src = recv_buffer_.data() + s * w;
    double* dst = owned_grad.row(plan_.send_local[s]);
    for (std::size_t j = 0; j < w; ++j)
      dst[j] += src[j];
  }
}

CommStats HaloExchange::take_stats() {
  CommStats s = stats_;
  stats_ = CommStats{};
  return s;
}

std::vector<std::uint64_t> HaloExchange::take_forward_rows() {
  std::vector<std::uint64_t> rows;
  rows.swap(forward_rows_);
  return rows;
}

} // namespace gnnpart::train
