#include "distributed/layout_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>

#include <stdlib.h>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/layout.h"
#include "distributed/partition_writer.h"
#include "io/npy.h"

namespace gnnpart::distributed {

namespace {

namespace fs = std::filesystem;

struct Row {
  NodeID global;
  NodeID degree;
  BlockID block;
};
struct Neighbour {
  NodeID global;
  NodeID degree;
  BlockID block;
};

int writer_of(BlockID block, int ranks) { return static_cast<int>(block % static_cast<BlockID>(ranks)); }

// Block p's arrays from its rows (sorted by global id) and their neighbours.
LayoutPlan build_plan(BlockID p, BlockID k, const DistGraph& graph, const std::vector<Row>& rows,
                      const std::vector<std::vector<Neighbour>>& lists) {
  LayoutPlan plan;
  plan.block = p;
  plan.k = k;
  plan.n = static_cast<NodeID>(graph.global_n);
  plan.m = graph.global_m;
  for (const Row& r : rows)
    plan.owned.push_back(r.global);
  struct Halo {
    BlockID block;
    NodeID global;
    NodeID degree;
    bool operator<(const Halo& o) const { return block != o.block ? block < o.block : global < o.global; }
    bool operator==(const Halo& o) const { return block == o.block && global == o.global; }
  };
  std::vector<Halo> halo;
  for (const auto& list : lists)
    for (const Neighbour& v : list)
      if (v.block != p)
        halo.push_back({v.block, v.global, v.degree});
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  const NodeID owned = plan.num_owned();
  const auto local_of = [&](const Neighbour& v) -> NodeID {
    if (v.block == p)
      return static_cast<NodeID>(std::lower_bound(plan.owned.begin(), plan.owned.end(), v.global) -
                                 plan.owned.begin());
    return owned + static_cast<NodeID>(std::lower_bound(halo.begin(), halo.end(),
                                                        Halo{v.block, v.global, 0}) -
                                       halo.begin());
  };
  plan.row_offsets.push_back(0);
  std::vector<NodeID> row;
  for (const auto& list : lists) {
    row.clear();
    for (const Neighbour& v : list)
      row.push_back(local_of(v));
    std::sort(row.begin(), row.end());
    plan.columns.insert(plan.columns.end(), row.begin(), row.end());
    plan.row_offsets.push_back(plan.columns.size());
  }
  for (const Row& r : rows)
    plan.degree.push_back(r.degree);
  for (const Halo& h : halo) {
    plan.halo.push_back(h.global);
    plan.halo_owner.push_back(h.block);
    plan.degree.push_back(h.degree);
  }
  for (const Halo& h : halo)
    if (plan.neighbors.empty() || plan.neighbors.back() != h.block)
      plan.neighbors.push_back(h.block);
  // Sends to q: owned rows with a neighbour in q, increasing global id (= local id).
  plan.send_offsets.push_back(0);
  plan.recv_offsets.push_back(0);
  std::size_t at = 0;
  for (const BlockID q : plan.neighbors) {
    for (NodeID u = 0; u < owned; ++u)
      if (std::any_of(lists[u].begin(), lists[u].end(),
                      [&](const Neighbour& v) { return v.block == q; }))
        plan.send_local.push_back(u);
    plan.send_offsets.push_back(plan.send_local.size());
    for (; at < halo.size() && halo[at].block == q; ++at)
      plan.recv_local.push_back(owned + static_cast<NodeID>(at));
    plan.recv_offsets.push_back(plan.recv_local.size());
  }
  return plan;
}

template <typename T> void write_ids(const fs::path& dir, const char* name, const std::vector<T>& data) {
  io::write_npy_ids((dir / fmt::format("{}.npy", name)).string(), std::span<const T>(data));
}

void write_plan(const fs::path& root, const LayoutPlan& plan) {
  const fs::path dir = root / fmt::format("part{}", plan.block);
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec)
    throw SystemError(dir.string() + ": cannot create directory: " + ec.message());
  write_ids(dir, "owned", plan.owned);
  write_ids(dir, "row_offsets", plan.row_offsets);
  write_ids(dir, "columns", plan.columns);
  write_ids(dir, "halo", plan.halo);
  write_ids(dir, "halo_owner", plan.halo_owner);
  write_ids(dir, "degree", plan.degree);
  write_ids(dir, "neighbors", plan.neighbors);
  write_ids(dir, "send_offsets", plan.send_offsets);
  write_ids(dir, "send_local", plan.send_local);
  write_ids(dir, "recv_offsets", plan.recv_offsets);
  write_ids(dir, "recv_local", plan.recv_local);
  write_ids(dir, "train", plan.train_local);
  write_ids(dir, "val", plan.val_local);
  write_ids(dir, "test", plan.test_local);
}

struct BlockCounts {
  std::uint64_t block, owned, halo, edges, neighbors, send, recv, messages;
};

std::string manifest(const DistGraph& graph, BlockID k, const LayoutNames& names,
                     std::vector<BlockCounts> counts) {
  std::sort(counts.begin(), counts.end(),
            [](const BlockCounts& a, const BlockCounts& b) { return a.block < b.block; });
  std::uint64_t rows = 0, max_send = 0, max_recv = 0, messages = 0;
  std::string blocks_json;
  for (const BlockCounts& c : counts) {
    rows += c.send;
    max_send = std::max(max_send, c.send);
    max_recv = std::max(max_recv, c.recv);
    messages += c.messages;
    blocks_json += fmt::format(
        "    {{\"block\": {}, \"owned\": {}, \"halo\": {}, \"local_edges\": {}, "
        "\"neighbors\": {}, \"send_rows\": {}, \"recv_rows\": {}, \"train\": 0, \"val\": 0, "
        "\"test\": 0}}{}\n",
        c.block, c.owned, c.halo, c.edges, c.neighbors, c.send, c.recv,
        c.block + 1 < k ? "," : "");
  }
  std::string json = fmt::format(
      "{{\n  \"format\": \"gnnpart-layout\",\n  \"format_version\": 1,\n  \"kind\": \"vertex\",\n"
      "  \"graph\": {},\n  \"n\": {},\n  \"m\": {},\n  \"k\": {},\n  \"model\": {},\n"
      "  \"objective\": {},\n",
      fmt::format("{:?}", names.graph), graph.global_n, graph.global_m, k, fmt::format("{:?}", names.model),
      fmt::format("{:?}", names.objective));
  json += "  \"features\": false,\n  \"features_source_dim\": 0,\n  \"labels\": false,\n";
  json += fmt::format("  \"predicted\": {{\"rows_per_layer\": {}, \"bytes_per_layer\": {}, "
                      "\"feature_dim\": 1, \"bytes_per_value\": 4, \"max_send_rows\": {}, "
                      "\"max_recv_rows\": {}, \"messages_per_layer\": {}}},\n",
                      rows, rows * 4, max_send, max_recv, messages);
  json += "  \"blocks\": [\n" + blocks_json + "  ]\n}\n";
  return json;
}

// Moves the staged directory to dir; an existing layout directory or empty directory is
// replaced, anything else is left alone.
void commit(const fs::path& staged, fs::path target) {
  std::error_code ec;
  if (fs::exists(target)) {
    if (!fs::is_directory(target) || !(fs::is_empty(target) || fs::exists(target / "layout.json")))
      throw InvalidParameter(target.string() + ": exists and is not a layout directory; not "
                                               "replacing it");
    fs::path aside = target.string() + ".old";
    fs::remove_all(aside, ec);
    fs::rename(target, aside, ec);
    if (ec)
      throw SystemError(target.string() + ": cannot move aside: " + ec.message());
    fs::rename(staged, target, ec);
    if (ec)
      throw SystemError(target.string() + ": cannot rename into place: " + ec.message());
    fs::remove_all(aside, ec);
    return;
  }
  fs::rename(staged, target, ec);
  if (ec)
    throw SystemError(target.string() + ": cannot rename into place: " + ec.message());
}

} // namespace

void write_distributed_layout(const Comm& comm, const DistGraph& graph,
                              const std::vector<BlockID>& blocks, BlockID k,
                              const std::string& dir, const LayoutNames& names) {
  fs::path target(dir);
  if (target.filename().empty())
    target = target.parent_path();
  // Rank 0 makes the staging directory; everyone learns its name.
  std::string staged = run_phase(comm, [&] {
    if (comm.rank != 0)
      return std::string();
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(parent, ec);
    std::string pattern = target.string() + ".tmp.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
      throw SystemError(pattern + ": cannot create directory: " + std::strerror(errno));
    return pattern;
  });
  std::uint64_t length = staged.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, comm.comm);
  staged.resize(length);
  MPI_Bcast(staged.data(), static_cast<int>(length), MPI_CHAR, 0, comm.comm);
  // Rank 0 removes the staging directory when any later phase fails.
  struct Cleanup {
    const std::string& path;
    bool armed;
    ~Cleanup() {
      std::error_code ec;
      if (armed)
        fs::remove_all(path, ec);
    }
  } cleanup{staged, comm.rank == 0};
  {
    // Global degrees of the ghosts, then every owned row to the writer of its block.
    std::vector<NodeID> degree(graph.n_total());
    for (NodeID u = 0; u < graph.n_local; ++u)
      degree[u] = static_cast<NodeID>(graph.last_edge(u) - graph.first_edge(u));
    update_all_ghosts<NodeID>(comm, graph, degree);
    const std::vector<Row> rows = route<Row>(comm, [&](auto&& send) {
      for (NodeID u = 0; u < graph.n_local; ++u)
        send(writer_of(blocks[u], comm.size), Row{graph.first() + u, degree[u], blocks[u]});
    });
    // The neighbours follow in the same order as their rows (same destinations, same order).
    const std::vector<Neighbour> neighbours = route<Neighbour>(comm, [&](auto&& send) {
      for (NodeID u = 0; u < graph.n_local; ++u)
        for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
          const NodeID v = graph.adjacency[e];
          send(writer_of(blocks[u], comm.size), Neighbour{graph.global_id(v), degree[v], blocks[v]});
        }
    });
    std::vector<EdgeID> first_neighbour(rows.size() + 1, 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
      first_neighbour[i + 1] = first_neighbour[i] + rows[i].degree;
    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return rows[a].block != rows[b].block ? rows[a].block < rows[b].block
                                            : rows[a].global < rows[b].global;
    });
    std::vector<BlockCounts> counts;
    std::size_t at = 0;
    run_phase(comm, [&] {
    for (BlockID p = static_cast<BlockID>(comm.rank); p < k; p += static_cast<BlockID>(comm.size)) {
      std::vector<Row> block_rows;
      std::vector<std::vector<Neighbour>> lists;
      for (; at < order.size() && rows[order[at]].block == p; ++at) {
        const std::size_t i = order[at];
        block_rows.push_back(rows[i]);
        lists.emplace_back(neighbours.begin() + static_cast<std::ptrdiff_t>(first_neighbour[i]),
                           neighbours.begin() + static_cast<std::ptrdiff_t>(first_neighbour[i + 1]));
      }
      const LayoutPlan plan = build_plan(p, k, graph, block_rows, lists);
      write_plan(staged, plan);
      const LayoutSummary summary = summarize_layout(std::span<const LayoutPlan>(&plan, 1));
      counts.push_back({p, plan.num_owned(), plan.num_halo(), plan.columns.size(),
                        plan.neighbors.size(), plan.send_rows(), plan.recv_rows(),
                        summary.messages});
    }
    });
    write_distributed_partition(comm, graph, blocks, (fs::path(staged) / "assignment.txt").string());
    // Counts of every block to rank 0, which writes the manifest and renames.
    const int mine = static_cast<int>(counts.size() * sizeof(BlockCounts));
    std::vector<int> sizes(static_cast<std::size_t>(comm.size)), displs(sizes.size(), 0);
    MPI_Gather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm.comm);
    for (std::size_t r = 1; r < sizes.size(); ++r)
      displs[r] = displs[r - 1] + sizes[r - 1];
    std::vector<BlockCounts> all(comm.rank == 0 ? k : 0);
    MPI_Gatherv(counts.data(), mine, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0,
                comm.comm);
    run_phase(comm, [&] {
      if (comm.rank != 0)
        return;
      std::ofstream out(fs::path(staged) / "layout.json", std::ios::binary | std::ios::trunc);
      out << manifest(graph, k, names, std::move(all));
      out.close();
      if (!out)
        throw SystemError(staged + "/layout.json: write failed");
      std::error_code ec;
      fs::permissions(staged,
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec,
                      ec);
      commit(staged, target);
    });
    cleanup.armed = false;
  }
}

} // namespace gnnpart::distributed
