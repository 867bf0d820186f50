#pragma once
// The machine profile of the epoch-time model: what one message, one byte and one unit of each
// trainer kernel cost on a machine, as `gnnpart-train --calibrate` measures them (format:
// docs/cost_model.md). Kernel rates are tables over the kernel's inner-loop width, since short
// rows vectorise worse than long ones; lookups interpolate in log(width) and clamp at the ends.
#include <string>
#include <vector>

namespace gnnpart::cost {

struct RatePoint {
  double width = 0;   // inner-loop length (columns)
  double seconds = 0; // per unit of work at this width
};
using RateTable = std::vector<RatePoint>;

// Seconds per unit at `width`; 0 for an empty table.
double rate_at(const RateTable& table, double width);

// Rate tables measured on blocks of several sizes (rows, increasing): a kernel whose operands
// outgrow the caches runs slower per unit. Lookups interpolate in log(rows) between the two
// nearest sizes and clamp at the ends; between two measured widths they read both at the
// asked bytes (rows x width) and interpolate in log(width).
struct RateGrid {
  std::vector<double> rows;
  std::vector<RateTable> tables; // one per entry of rows
  bool empty() const { return rows.empty(); }
};
double rate_at(const RateGrid& grid, double rows, double width);

struct CostProfile {
  std::string name;            // e.g. the host, or "example: 100 Gb/s InfiniBand cluster"
  std::string source;          // "measured" (gnnpart-train --calibrate) or "assumed"
  std::string transport;       // how the ranks talked when measured (free text)
  int ranks = 0;               // ranks of the calibration run
  double latency_s = 0;        // alpha: per message sent or received
  double seconds_per_byte = 0; // beta: per byte sent or received (streaming, all ranks busy)
  // Per synchronising exchange (and the allreduce): the wait for a partner that is late for
  // reasons outside the model (other jobs on the cores, OS noise), as a fraction of the compute
  // since the last synchronisation; about 0 on an idle machine.
  double sync_jitter = 0;
  double sync_wait_s = 0; // optional: the same wait per synchronisation, whatever its length
  double allreduce_latency_s = 0;
  double allreduce_seconds_per_byte = 0;
  // Fraction of a rank's local SpMM that hides the halo exchange posted before it (0: none; the
  // transfer of a large message may only progress inside MPI_Waitall).
  double overlap = 0;
  RateTable spmm;      // per nonzero x column of A_hat * H (row-wise SpMM and its transpose)
  RateTable gemm;      // per multiply-add of H * W (zero entries of H skipped), width = cols(W)
  RateTable gemm_at_b; // per multiply-add of H^T * G (zero entries of H skipped), width = cols(G)
  RateTable gemm_a_bt; // per multiply-add of G * W^T (dot products), width = rows of W^T's sum
  double elementwise_s = 0; // per matrix entry of a copy / ReLU / bias / pack pass
  double dropout_s = 0;     // per nonzero entry drawing a dropout decision
  double adam_s = 0;        // per parameter of one Adam step
  // Optional fields (absent in older profiles: 0 / empty, which prices as before).
  // Per entry of a zero-skipping loop when half the entries, at random, are zero (after dropout
  // or a ReLU): the mispredicted branch, by the width of the work it guards (GEMMs: cols(W);
  // the dropout and ReLU-mask loops: 1). An operand of density d pays 2 min(d, 1 - d) of it.
  RateTable zero_test;
  RateGrid spmm_grid;            // spmm by the block's rows; empty: spmm at every size
  RateGrid spmm_transposed_grid; // A_hat^T * G (scatter) by rows; empty: priced as spmm
  // The trainer's HaloExchange, by rows exchanged (sent or received) per rank and width: seconds
  // per entry packed (gathering scattered rows, filling the receive buffer, posting), per byte
  // of the wait (replaces seconds_per_byte), per entry unpacked (a fresh halo matrix and the
  // scattered copy, or the gradients added to scattered rows). Empty: elementwise_s per entry
  // packed and unpacked, seconds_per_byte per byte.
  RateGrid pack_grid;
  // SpMM reads of operand rows still in a core's cache: spmm_grid and spmm_transposed_grid on
  // blocks whose columns all lie within a few rows of the row (a band), and the cache's bytes.
  // A read whose LRU stack distance (distinct rows read since) times the row's bytes is below
  // reuse_cache_bytes pays these; the others the random blocks' rates. Empty / 0: every read
  // pays the random blocks' rates.
  RateGrid spmm_near_grid;
  RateGrid spmm_transposed_near_grid;
  double reuse_cache_bytes = 0;
  RateGrid exchange_byte_grid;
  RateGrid unpack_grid;
  // The gradient allreduce as the trainer meets it, after milliseconds of compute: seconds of
  // the whole MPI_Allreduce by its bytes (RatePoint::width holds the bytes), interpolated
  // linearly in bytes, the last segment extended. Empty: allreduce_latency_s +
  // allreduce_seconds_per_byte x bytes. A network that lets a burst through after a pause (a
  // token bucket) makes the time a line with a knee, which the table follows and one line
  // fitted through back-to-back allreduces does not.
  RateTable allreduce_table;
  // Share of an exchange's transfer that goes through one medium of all ranks together (one
  // rate-limited loopback, a shared bus) rather than through each rank's own link: 1 prices a
  // rank's bytes at the ranks' mean (every byte of every rank queues in the same place), 0 at
  // its own; measured by an all-to-all against one rank sending alone. 0: as before.
  double shared_network = 0;
  // Relative standard deviation of a rank's compute speed against the other ranks' at the same
  // time (cores slowed by other guests or jobs, memory placement): a rank's compute in a segment
  // is c x f with f about N(1, rank_spread^2), independent per rank, and a synchronising segment
  // takes the expected slowest rank. Measured by the calibration's spread of equal GEMM segments
  // over the ranks. 0: every rank at its calibrated speed, as before.
  double rank_spread = 0;
  // Fetch mini-batches' sampling (trainer/fetch_minibatch.cc): seconds per neighbour drawn
  // (cost::sample_neighbors), and per aggregation entry of a sampled layer for merging the
  // frontier (sort, unique) and indexing every entry in it. 0: not calibrated (older profiles).
  double sample_draw_s = 0;
  double sample_index_s = 0;
};

// Seconds per nonzero x column of the trainer's SpMM (transposed: its scatter) on a block whose
// operand has `rows` rows: the grids where the profile has them, else the spmm table.
double spmm_rate(const CostProfile& profile, double rows, double width, bool transposed);

// Seconds of the profile's gradient allreduce of `bytes` bytes.
double allreduce_seconds(const CostProfile& profile, double bytes);

// Reads a profile; a missing or malformed field is an InputError naming the file.
CostProfile read_profile(const std::string& path);

// Field by field (every rate of every table and grid entry by entry), the median of profiles
// measured the same way (the same tables and grids); name, source, transport and ranks from the
// first. A calibration repeated on a machine whose background load comes and goes keeps the
// typical value of each field rather than one run's draw. Throws InvalidParameter when there is
// no profile or their tables differ in shape.
CostProfile median_profile(const std::vector<CostProfile>& profiles);
std::string profile_json(const CostProfile& profile);
// Writes through a temporary file and a rename: no partial profile on failure.
void write_profile(const std::string& path, const CostProfile& profile);

} // namespace gnnpart::cost
