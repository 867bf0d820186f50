#pragma once
// The training run of one rank: full-batch (run) or mini-batch (run_minibatch, from run when
// options.batch_size > 0; its modes: trainer/minibatch.h). Rank 0 prints the totals and
// writes the JSON report.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include "cost/phases.h"
#include "halo_exchange.h"
#include "layout/layout_io.h"
#include "model.h"

namespace gnnpart::train {

// An error every rank detects alike (options, manifest): rank 0 reports it, all exit cleanly.
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

int run(const TrainOptions& options, MPI_Comm comm);
// The layout's manifest; a missing or malformed one is a ConfigError.
io::LayoutManifest read_manifest(const std::string& dir);
int run_minibatch(const TrainOptions& options, MPI_Comm comm);

// Per-rank traffic and time of one epoch (or batch), gathered to rank 0.
struct RankEpoch {
  double bytes_sent = 0, bytes_received = 0, messages_sent = 0, messages_received = 0;
  double compute_seconds = 0, comm_seconds = 0;
};
inline constexpr int kRankEpochFields = 6;

// Gathers one RankEpoch per rank on rank 0 (empty elsewhere).
std::vector<RankEpoch> gather_rank_epochs(const RankEpoch& mine, MPI_Comm comm);

// Sum over ranks of a vector of counters (every rank gets the result).
std::vector<std::uint64_t> allreduce_sum(std::vector<std::uint64_t> values, MPI_Comm comm);

// Appends "key": value pairs to a JSON object under construction.
class JsonWriter {
public:
  JsonWriter& add(const std::string& key, double value);
  JsonWriter& add(const std::string& key, std::uint64_t value);
  JsonWriter& add(const std::string& key, const std::string& value);
  JsonWriter& add(const std::string& key, const std::vector<std::uint64_t>& values);
  JsonWriter& add(const std::string& key, const std::vector<double>& values);
  JsonWriter& add_raw(const std::string& key, const std::string& json);
  std::string str() const { return text_ + "\n}\n"; }

private:
  void key(const std::string& key);
  std::string text_ = "{";
};

// Every rank's mean seconds per phase (rank 0 gets them all; empty elsewhere), as a JSON array
// of objects {"rank": r, "<phase>": seconds, ...}.
std::string phases_json(const cost::PhaseSeconds& mine, MPI_Comm comm);

// Per-rank totals over all epochs, as a JSON array.
std::string rank_totals_json(const std::vector<std::vector<RankEpoch>>& epochs);

// Writes text to path as gnnpart's outputs are written (io::OutputFile): no partial file, and a
// device or "-" written directly.
void write_file_atomically(const std::string& path, const std::string& text);

} // namespace gnnpart::train
