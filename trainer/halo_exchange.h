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
  // Waits; halo becomes num_halo x width with the received rows.
  void end_forward(Matrix& halo);
  // Sends halo gradients (num_halo x width) to their owners.
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
            std::size_t width, int tag);
  void wait(std::size_t width);

  const LayoutPlan& plan_;
  MPI_Comm comm_;
  std::vector<double> send_buffer_;
  std::vector<double> recv_buffer_;
  std::vector<MPI_Request> requests_;
  std::vector<int> recv_request_index_;
  std::size_t width_ = 0;
  PhaseClock* clock_ = nullptr;
  CommStats stats_;
  std::vector<std::uint64_t> forward_rows_;
};

} // namespace gnnpart::train
