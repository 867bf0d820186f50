#pragma once
// Small readers for the shared datasets (gzip SNAP edge lists, gzip hMETIS) and independent
// brute-force checks of hypergraph partitions, used by the hypergraph tests only.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/graph.h"
#include "core/graph_builder.h"
#include "core/hypergraph.h"
#include "core/options.h"
#include "core/partition.h"
#include "core/random.h"
#include "hypergraph/hypergraph_partitioner.h"

namespace gnnpart::testing {

inline std::vector<std::string> read_gz_lines(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr)
    throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  std::string current;
  char buffer[1 << 16];
  int got;
  while ((got = gzread(f, buffer, sizeof(buffer))) > 0) {
    for (int i = 0; i < got; ++i) {
      if (buffer[i] == '\n') {
        lines.push_back(std::move(current));
        current.clear();
      } else if (buffer[i] != '\r') {
        current.push_back(buffer[i]);
      }
    }
  }
  gzclose(f);
  if (!current.empty())
    lines.push_back(std::move(current));
  return lines;
}

// SNAP-style "u v" lines with a "# vertices: N" header.
inline CsrGraph read_edges_gz(const std::string& path) {
  EdgeList edges;
  for (const std::string& line : read_gz_lines(path)) {
    if (line.empty())
      continue;
    if (line[0] == '#') {
      unsigned long long n = 0;
      if (std::sscanf(line.c_str(), "# vertices: %llu", &n) == 1)
        edges.n = static_cast<NodeID>(n);
      continue;
    }
    unsigned long long u = 0, v = 0;
    if (std::sscanf(line.c_str(), "%llu %llu", &u, &v) != 2)
      continue;
    edges.sources.push_back(static_cast<NodeID>(u));
    edges.targets.push_back(static_cast<NodeID>(v));
    edges.n = std::max<NodeID>(edges.n, static_cast<NodeID>(std::max(u, v) + 1));
  }
  return build_csr(edges);
}

// hMETIS: "% comments", header "nets vertices [fmt]", one net per line (1-based pins);
// fmt 1 / 11: net weight first; fmt 10 / 11: vertex weights after the nets.
inline Hypergraph read_hgr_gz(const std::string& path) {
  const auto lines = read_gz_lines(path);
  std::size_t i = 0;
  auto next = [&]() -> const std::string* {
    while (i < lines.size() && (lines[i].empty() || lines[i][0] == '%'))
      ++i;
    return i < lines.size() ? &lines[i++] : nullptr;
  };
  std::istringstream header(*next());
  unsigned long long m = 0, n = 0;
  int fmt = 0;
  header >> m >> n;
  if (!(header >> fmt))
    fmt = 0;
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> net_weights;
  for (unsigned long long e = 0; e < m; ++e) {
    std::istringstream in(*next());
    long long x;
    if (fmt % 10 == 1) {
      in >> x;
      net_weights.push_back(x);
    }
    while (in >> x)
      pins.push_back(static_cast<NodeID>(x - 1));
    offsets.push_back(pins.size());
  }
  std::vector<Weight> vertex_weights;
  if (fmt >= 10)
    for (unsigned long long u = 0; u < n; ++u)
      vertex_weights.push_back(std::stoll(*next()));
  return Hypergraph(static_cast<NodeID>(n), std::move(offsets), std::move(pins),
                    std::move(net_weights), 1, std::move(vertex_weights));
}

struct BruteForceMetrics {
  Weight km1 = 0, cut = 0, soed = 0;
  std::vector<Weight> block_weights; // k * ncon
  BlockID empty_blocks = 0;
};

// Deliberately simple: a std::set of blocks per net.
inline BruteForceMetrics brute_force_metrics(const Hypergraph& hg, const Partition& p) {
  BruteForceMetrics r;
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    std::set<BlockID> blocks;
    for (NodeID v : hg.pins(e))
      blocks.insert(p.blocks.at(v));
    const Weight lambda = static_cast<Weight>(blocks.size());
    if (lambda > 0)
      r.km1 += (lambda - 1) * hg.net_weight(e);
    if (lambda > 1) {
      r.cut += hg.net_weight(e);
      r.soed += lambda * hg.net_weight(e);
    }
  }
  r.block_weights.assign(static_cast<std::size_t>(p.k) * hg.ncon(), 0);
  std::vector<NodeID> count(p.k, 0);
  for (NodeID u = 0; u < hg.num_nodes(); ++u) {
    ++count.at(p.blocks[u]);
    for (int c = 0; c < hg.ncon(); ++c)
      r.block_weights[static_cast<std::size_t>(p.blocks[u]) * hg.ncon() + c] +=
          hg.vertex_weight(u, c);
  }
  for (NodeID c : count)
    r.empty_blocks += c == 0;
  return r;
}

// Checks a partition from scratch and returns its brute-force metrics.
inline BruteForceMetrics check(const Hypergraph& hg, const Partition& p,
                               const PartitionOptions& o) {
  EXPECT_EQ(p.k, o.k);
  EXPECT_EQ(p.blocks.size(), hg.num_nodes());
  for (BlockID b : p.blocks)
    EXPECT_LT(b, o.k);
  const auto m = brute_force_metrics(hg, p);
  if (hg.num_nodes() >= o.k) {
    EXPECT_EQ(m.empty_blocks, 0u);
  }
  for (int c = 0; c < hg.ncon(); ++c) {
    Weight total = 0;
    for (NodeID u = 0; u < hg.num_nodes(); ++u)
      total += hg.vertex_weight(u, c);
    const Weight bound = max_block_weight(total, o.k, o.epsilon);
    for (BlockID b = 0; b < o.k; ++b)
      EXPECT_LE(m.block_weights[static_cast<std::size_t>(b) * hg.ncon() + c], bound)
          << "block " << b << " constraint " << c;
  }
  const Objective obj = o.objective == Objective::kVolume ? Objective::kKm1 : o.objective;
  const Weight value = obj == Objective::kCut ? m.cut : obj == Objective::kSoed ? m.soed : m.km1;
  EXPECT_EQ(hypergraph_objective(hg, p, obj), value);
  return m;
}

// A random hypergraph for gain and pin-count tests: nets of 1 to small_max pins, every tenth net
// of 1 to big_max pins (repeated pins possible), weights 1 to max_weight times weight_scale.
inline Hypergraph random_hypergraph(NodeID n, int nets, int small_max, int big_max,
                                    Weight max_weight, Weight weight_scale, Rng& rng) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> weights;
  for (int e = 0; e < nets; ++e) {
    const int size = 1 + static_cast<int>(rng.below(e % 10 == 0 ? big_max : small_max));
    for (int i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    offsets.push_back(pins.size());
    weights.push_back((1 + static_cast<Weight>(rng.below(max_weight))) * weight_scale);
  }
  return Hypergraph(n, offsets, pins, weights);
}

// A block for each of n vertices, drawn uniformly from blocks 0 to used - 1 (one draw each, in
// vertex order).
inline std::vector<BlockID> random_blocks(NodeID n, BlockID used, Rng& rng) {
  std::vector<BlockID> blocks(n);
  for (auto& b : blocks)
    b = static_cast<BlockID>(rng.below(used));
  return blocks;
}

// Options of a km1 run of the hypergraph model.
inline PartitionOptions options(BlockID k, std::uint64_t seed = 0, int threads = 2) {
  PartitionOptions o;
  o.k = k;
  o.seed = seed;
  o.threads = threads;
  o.objective = Objective::kKm1;
  o.model = Model::kHypergraph;
  return o;
}

} // namespace gnnpart::testing
