#pragma once
// Halo exchange along a layout's send/receive lists with non-blocking point-to-point MPI.
// Forward: owned rows go to the neighbours that hold them as halo. Backward (transposed):
// gradients of halo rows go back to their owners, which add them to their rows.
// Every byte and message is counted from the sizes actually posted and received.
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "core/layout.h"
#include "dense.h"
#include "phase_clock.h"

namespace gnnpart::train {

struct CommStats {
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t rows_sent = 0;
  std::uint64_t rows_received = 0;
  double wait_seconds = 0; // time blocked in MPI_Waitall

  CommStats& operator+=(const CommStats& o);
};

class HaloExchange {
public:
  HaloExchange(const LayoutPlan& plan, MPI_Comm comm);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  // Posts receives for the halo rows and sends the owned rows (owned: num_owned x width).
  void begin_forward(const Matrix& owned);
  // Waits; returns the num_halo x width halo rows, valid until the next begin_forward.
  const Matrix& end_forward();
  // Sends halo gradients (num_halo x width) to their owners. halo_grad must stay as it is
  // until end_backward: it may be sent from directly.
  void begin_backward(const Matrix& halo_grad);
  // Waits and adds what arrived to owned_grad (num_owned x width).
  void end_backward(Matrix& owned_grad);

  // Charges packing, waiting and unpacking to `clock` (nullptr: untimed).
  void set_clock(PhaseClock* clock) { clock_ = clock; }

  // Traffic since construction or the last take_stats().
  CommStats take_stats();
  // Rows sent by the forward exchanges since the last take_forward_rows().
  std::vector<std::uint64_t> take_forward_rows();

private:
  void post(const std::vector<EdgeID>& out_offsets, const std::vector<EdgeID>& in_offsets,
            std::size_t width, int tag, const double* send_from, double* receive_into);
  void wait(std::size_t width);

  const LayoutPlan& plan_;
  MPI_Comm comm_;
  std::vector<double> send_buffer_;
  std::vector<double> recv_buffer_;
  // The forward exchange's halo rows. When the receive lists fill the halo slots in order (as
  // every layout of docs/layout.md does), they are received here directly: no copy, and no
  // fresh zeroed matrix per layer.
  Matrix halo_;
  bool receive_halo_in_place_ = false;
  std::vector<MPI_Request> requests_;
  std::vector<int> recv_request_index_;
  std::size_t width_ = 0;
  PhaseClock* clock_ = nullptr;
  CommStats stats_;
  std::vector<std::uint64_t> forward_rows_;
};

} // namespace gnnpart::train
