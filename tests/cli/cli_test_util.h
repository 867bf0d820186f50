#pragma once
// Running the gnnpart binary from tests: temporary directories, captured output, and a plain
// sequential recomputation of partition metrics to check the CLI's numbers against.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../test_files.h"

namespace gnnpart::cli_testing {

namespace fs = std::filesystem;

class TempDir {
public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gnnpart_cli_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Names of all entries, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_))
      names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

private:
  fs::path path_;
};

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  return test_files::read_text(path);
}
inline void write_file(const std::string& path, const std::string& text) {
  test_files::write_text(path, text);
}

// Runs `program args` through the shell, capturing stdout, stderr and the exit code.
inline Result run_program(const std::string& program, const std::string& args) {
  TempDir capture;
  const std::string command = program + " " + args + " >" + capture.file("out") + " 2>" +
                              capture.file("err") + " </dev/null";
  const int status = std::system(command.c_str());
  Result result;
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(capture.file("out"));
  result.err = slurp(capture.file("err"));
  return result;
}

inline Result gnnpart(const std::string& args) {
  return run_program(GNNPART_BINARY, args);
}

inline std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A number under `key` in a flat JSON object (NaN when absent).
inline double json_number(const std::string& json, const std::string& key) {
  const std::string needle = "\"" + key + "\": ";
  const std::size_t at = json.find(needle);
  if (at == std::string::npos)
    return std::nan("");
  return std::strtod(json.c_str() + at + needle.size(), nullptr);
}

// A hand-written cost profile of a slow network (100 MB/s, 20 us a message): communication
// dominates. With the sampling rates that the mini-batch step model needs.
inline const char* kSlowNetworkProfile = R"({"name": "test: slow network", "source": "assumed",
  "transport": "none", "ranks": 8, "latency_s": 2e-05, "seconds_per_byte": 1e-08,
  "sync_jitter": 0, "allreduce_latency_s": 2e-05, "allreduce_seconds_per_byte": 1e-09,
  "overlap": 0, "spmm": [{"width": 1, "seconds": 2e-09}, {"width": 256, "seconds": 1e-09}],
  "gemm": [{"width": 1, "seconds": 1e-09}], "gemm_at_b": [{"width": 1, "seconds": 1e-09}],
  "gemm_a_bt": [{"width": 1, "seconds": 1e-09}], "elementwise_s": 1e-09, "dropout_s": 2e-09,
  "adam_s": 5e-09, "sample_draw_s": 3e-08, "sample_index_s": 1e-07})";

inline std::vector<std::uint32_t> read_blocks(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::uint32_t> blocks;
  std::string line;
  while (std::getline(in, line))
    blocks.push_back(static_cast<std::uint32_t>(std::stoul(line)));
  return blocks;
}

struct SimpleGraph {
  std::uint32_t n = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges; // u < v, no duplicates
};

// "# vertices: N" header, then "u v" lines.
inline std::string to_edge_list(const SimpleGraph& g) {
  std::string text = "# vertices: " + std::to_string(g.n) + "\n";
  for (const auto& [u, v] : g.edges)
    text += std::to_string(u) + " " + std::to_string(v) + "\n";
  return text;
}

struct SimpleMetrics {
  std::uint64_t edge_cut = 0, comm_volume = 0, max_send = 0, max_recv = 0;
  std::vector<std::uint64_t> sizes;
};

// Straight from the definitions: lambda(u) = distinct blocks among u and its neighbours.
inline SimpleMetrics simple_metrics(const SimpleGraph& g, const std::vector<std::uint32_t>& part,
                                    std::uint32_t k) {
  std::vector<std::set<std::uint32_t>> neighbour_blocks(g.n);
  SimpleMetrics m;
  for (const auto& [u, v] : g.edges) {
    if (part[u] != part[v])
      ++m.edge_cut;
    neighbour_blocks[u].insert(part[v]);
    neighbour_blocks[v].insert(part[u]);
  }
  std::vector<std::uint64_t> send(k, 0), recv(k, 0);
  m.sizes.assign(k, 0);
  for (std::uint32_t u = 0; u < g.n; ++u) {
    ++m.sizes[part[u]];
    neighbour_blocks[u].erase(part[u]);
    m.comm_volume += neighbour_blocks[u].size();
    send[part[u]] += neighbour_blocks[u].size();
    for (const std::uint32_t q : neighbour_blocks[u])
      ++recv[q];
  }
  m.max_send = *std::max_element(send.begin(), send.end());
  m.max_recv = *std::max_element(recv.begin(), recv.end());
  return m;
}

inline std::int64_t balance_bound(std::int64_t total, std::int64_t k, double eps) {
  return static_cast<std::int64_t>(
      std::floor((1.0 + eps) * static_cast<double>((total + k - 1) / k) + 1e-9));
}

} // namespace gnnpart::cli_testing
