// Gathering per-rank figures and writing the JSON report.
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "io/output_file.h"
#include "run.h"

namespace gnnpart::train {

io::LayoutManifest read_manifest(const std::string& dir) {
  try {
    return io::read_layout_manifest(dir);
  } catch (const std::exception& e) {
    throw ConfigError(e.what());
  }
}

std::vector<RankEpoch> gather_rank_epochs(const RankEpoch& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const double fields[kRankEpochFields] = {mine.bytes_sent,      mine.bytes_received,
                                           mine.messages_sent,   mine.messages_received,
                                           mine.compute_seconds, mine.comm_seconds};
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(size) * kRankEpochFields : 0);
  MPI_Gather(fields, kRankEpochFields, MPI_DOUBLE, all.data(), kRankEpochFields, MPI_DOUBLE, 0,
             comm);
  std::vector<RankEpoch> result;
  for (std::size_t r = 0; rank == 0 && r < static_cast<std::size_t>(size); ++r) {
    const double* f = all.data() + r * kRankEpochFields;
    result.push_back({f[0], f[1], f[2], f[3], f[4], f[5]});
  }
  return result;
}

std::vector<std::uint64_t> allreduce_sum(std::vector<std::uint64_t> values, MPI_Comm comm) {
  std::vector<std::uint64_t> out(values.size());
  MPI_Allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM,
                comm);
  return out;
}

void JsonWriter::key(const std::string& key) {
  text_ += text_.size() > 1 ? ",\n  " : "\n  ";
  text_ += "\"" + key + "\": ";
}

JsonWriter& JsonWriter::add(const std::string& k, double value) {
  key(k);
  text_ += std::isfinite(value) ? fmt::format("{:.9g}", value) : "null";
  return *this;
}
JsonWriter& JsonWriter::add(const std::string& k, std::uint64_t value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}
JsonWriter& JsonWriter::add(const std::string& k, const std::string& value) {
  key(k);
  std::string escaped;
  for (char c : value) {
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c;
  }
  text_ += "\"" + escaped + "\"";
  return *this;
}
JsonWriter& JsonWriter::add(const std::string& k, const std::vector<std::uint64_t>& values) {
  key(k);
  text_ += "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text_ += (i ? ", " : "") + std::to_string(values[i]);
  }
  text_ += "]";
  return *this;
}
JsonWriter& JsonWriter::add(const std::string& k, const std::vector<double>& values) {
  key(k);
  text_ += "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text_ += (i ? ", " : "") + fmt::format("{:.9g}", values[i]);
  }
  text_ += "]";
  return *this;
}
JsonWriter& JsonWriter::add_raw(const std::string& k, const std::string& json) {
  key(k);
  text_ += json;
  return *this;
}

std::string phases_json(const cost::PhaseSeconds& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int count = static_cast<int>(cost::kPhaseCount);
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(size) * count : 0);
  MPI_Gather(mine.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, comm);
  std::string out = "[";
  for (int r = 0; rank == 0 && r < size; ++r) {
    out += fmt::format("{}{{\"rank\": {}", r ? ",\n    " : "\n    ", r);
    for (int i = 0; i < count; ++i)
      out += fmt::format(", \"{}\": {:.6g}", cost::kPhaseNames[i], all[r * count + i]);
    out += "}";
  }
  return out + "\n  ]";
}

std::string rank_totals_json(const std::vector<std::vector<RankEpoch>>& epochs) {
  if (epochs.empty())
    return "[]";
  std::string out = "[";
  for (std::size_t r = 0; r < epochs[0].size(); ++r) {
    RankEpoch t;
    for (const auto& e : epochs) {
      t.bytes_sent += e[r].bytes_sent;
      t.bytes_received += e[r].bytes_received;
      t.messages_sent += e[r].messages_sent;
      t.messages_received += e[r].messages_received;
      t.compute_seconds += e[r].compute_seconds;
      t.comm_seconds += e[r].comm_seconds;
    }
    out += fmt::format(
        "{}{{\"rank\": {}, \"bytes_sent\": {:.0f}, \"bytes_received\": {:.0f}, "
        "\"messages_sent\": {:.0f}, \"messages_received\": {:.0f}, \"compute_s\": {:.6f}, "
        "\"comm_s\": {:.6f}}}",
        r ? ",\n    " : "\n    ", r, t.bytes_sent, t.bytes_received, t.messages_sent,
        t.messages_received, t.compute_seconds, t.comm_seconds);
  }
  return out + "\n  ]";
}

// Through io::OutputFile: a regular file is written beside the target and renamed into place; a
// device, a FIFO or "-" / /dev/stdout is written directly (a rename would replace /dev/null).
void write_file_atomically(const std::string& path, const std::string& text) {
  io::OutputFile out(path, false);
  out.write(text);
  out.commit();
}

} // namespace gnnpart::train
