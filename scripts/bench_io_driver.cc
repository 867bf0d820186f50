// Timing driver for scripts/bench_io.sh (built by that script against the io library).
//   bench_io_driver edgelist|graph|metis|hmetis|binary|write-binary PATH [threads] [repeats] [OUT]
// Prints "seconds,input_bytes,n,m": the best wall time of `repeats` reads (read only, no
// process start), the bytes parsed (uncompressed text, or the binary file size) and the size
// of what was read (hmetis: n and the number of nets).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/graph_builder.h"
#include "core/parallel.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"

using namespace gnnpart;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODE PATH [threads] [repeats] [OUT]\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1], path = argv[2];
  const int threads = argc > 3 ? std::atoi(argv[3]) : 0;
  const int repeats = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  try {
    return run_with_threads(threads, [&] {
      double best = 1e300;
      std::uint64_t n = 0, m = 0, bytes = 0;
      for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        if (mode == "edgelist") {
          const io::EdgeListData data = io::read_edge_list(path);
          n = data.edges.n;
          m = data.edges.sources.size();
        } else if (mode == "binary") {
          const CsrGraph g = io::read_binary_graph(path);
          n = g.num_nodes();
          m = g.num_edges();
        } else if (mode == "hmetis") {
          const Hypergraph h = io::read_hmetis(path);
          n = h.num_nodes();
          m = h.num_nets();
        } else if (mode == "graph" || mode == "metis") {
          const CsrGraph g = io::read_graph(path);
          n = g.num_nodes();
          m = g.num_edges();
        } else if (mode == "write-binary" && argc > 5) {
          const CsrGraph g = io::read_graph(path);
          io::write_binary_graph(g, argv[5]);
          n = g.num_nodes();
          m = g.num_edges();
        } else {
          std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
          return 2;
        }
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count());
      }
      bytes = mode == "binary" ? std::filesystem::file_size(path) : io::InputBuffer(path).size();
      std::printf("%.6f,%llu,%llu,%llu\n", best, static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(n), static_cast<unsigned long long>(m));
      return 0;
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
