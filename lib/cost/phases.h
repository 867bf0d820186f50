#pragma once
// The phases of one full-batch epoch of gnnpart-train, shared by the trainer's per-phase timers
// (its --json "phases_s") and the epoch-time model's per-rank breakdown, so that the two can be
// compared phase by phase (docs/cost_model.md).
#include <array>
#include <cstddef>
#include <string_view>

namespace gnnpart::cost {

enum class Phase : int {
  kCopy,         // copy of a layer's input (and the ReLU of a hidden one)
  kDropout,      // dropout decisions and the mask kept for backward
  kGemm,         // H * W of the forward pass
  kSpmmLocal,    // A_hat against owned columns, forward and transposed
  kSpmmHalo,     // A_hat against halo columns, forward and transposed
  kPack,         // copying rows into the send buffer and posting the messages
  kWait,         // MPI_Waitall of a halo exchange (transfer and late partners)
  kUnpack,       // received rows into the halo matrix (or added to the owned gradients)
  kBias,         // bias add and bias gradient
  kLoss,         // softmax cross-entropy, its gradient, the correct count
  kGemmBackward, // H^T * G and G * W^T
  kMask,         // gradient through dropout and ReLU
  kAllreduce,    // flattening the gradients and MPI_Allreduce
  kAdam,         // weight decay and the Adam step
};
inline constexpr std::size_t kPhaseCount = 14;
using PhaseSeconds = std::array<double, kPhaseCount>;

inline constexpr std::array<std::string_view, kPhaseCount> kPhaseNames{
    "copy",   "dropout", "gemm", "spmm_local",    "spmm_halo", "pack",      "wait",
    "unpack", "bias",    "loss", "gemm_backward", "mask",      "allreduce", "adam"};

constexpr std::size_t phase_index(Phase p) {
  return static_cast<std::size_t>(p);
}

} // namespace gnnpart::cost
