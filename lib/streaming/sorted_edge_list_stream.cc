// A text edge list already sorted by source and holding both directions of every edge ("u v" for
// each neighbour v of u, u non-decreasing) is a vertex stream as it stands: no sort needed.
#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.h"
#include "io/edge_list_grammar.h"
#include "streaming/edge_lines.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {
namespace {

class SortedEdgeListStream final : public VertexStream {
public:
  SortedEdgeListStream(const std::string& path, bool one_based, std::size_t batch_entries)
      : source_(path), lines_(source_, one_based), batch_entries_(batch_entries) {
    path_ = path;
    count_and_check();
  }

  void begin_pass() override {
    lines_.rewind();
    next_vertex_ = 0;
    entries_done_ = 0;
    has_pending_ = read_edge(pending_u_, pending_v_);
  }

  bool next_batch(VertexBatch& batch) override {
    batch.clear();
    batch.first = next_vertex_;
    while (next_vertex_ < num_nodes_ && batch.adjacency.size() < batch_entries_) {
      while (has_pending_ && pending_u_ == next_vertex_) {
        if (pending_v_ != pending_u_) { // self loops are dropped, as everywhere
          batch.adjacency.push_back(pending_v_);
          ++entries_done_;
        }
        has_pending_ = read_edge(pending_u_, pending_v_);
      }
      batch.offsets.push_back(batch.adjacency.size());
      ++next_vertex_;
    }
    return batch.size() > 0;
  }

  void end_pass() override {}

private:
  // Next edge as (u, v), 0-based; false at the end.
  bool read_edge(NodeID& u, NodeID& v) {
    std::uint64_t a = 0, b = 0;
    if (!lines_.next(a, b, [] {}))
      return false;
    u = static_cast<NodeID>(a);
    v = static_cast<NodeID>(b);
    return true;
  }

  // One pass before the first: n, the number of entries, sortedness by source, and that every
  // vertex appears as often as a source as it does as a target (what symmetry implies; a pass
  // cannot afford to check more).
  void count_and_check() {
    std::vector<EdgeID> balance; // out-entries minus in-entries, grown as ids appear
    auto grow = [&](NodeID id) {
      if (id >= balance.size())
        balance.resize(static_cast<std::size_t>(id) + 1, 0);
    };
    NodeID u = 0, v = 0;
    NodeID previous = 0;
    bool first = true;
    EdgeID entries = 0;
    while (read_edge(u, v)) {
      if (!first && u < previous)
        throw InputError(path_, lines_.line_number(),
                         "not sorted by source (" + std::to_string(u) + " after " +
                             std::to_string(previous) + "); drop --sorted to sort it first");
      first = false;
      previous = u;
      grow(std::max(u, v));
      if (u == v)
        continue;
      ++balance[u];
      --balance[v];
      ++entries;
    }
    for (NodeID id = 0; id < balance.size(); ++id)
      if (balance[id] != 0)
        throw InputError(path_, lines_.line_number(),
                         "not symmetric: vertex " + std::to_string(id) +
                             " is a source and a target a different number of times (--sorted "
                             "needs both directions of every edge)");
    if (lines_.line_number() == 0)
      throw InputError(path_, 0, io::grammar::kEmptyInputMessage);
    const std::uint64_t n = std::max<std::uint64_t>(lines_.header().vertices, balance.size());
    if (lines_.header().vertices > static_cast<std::uint64_t>(kMaxNodeID) + 1)
      throw InputError(path_, 0, io::grammar::too_many_vertices_message(lines_.header().vertices));
    if (n == 0)
      throw InputError(path_, 0, io::grammar::kNoEdgesMessage);
    num_nodes_ = static_cast<NodeID>(n);
    num_entries_ = entries;
  }

  FileSource source_;
  EdgeLines lines_;
  std::size_t batch_entries_;
  NodeID next_vertex_ = 0;
  bool has_pending_ = false;
  NodeID pending_u_ = 0;
  NodeID pending_v_ = 0;
};

} // namespace

std::unique_ptr<VertexStream> open_sorted_edge_list_stream(const std::string& path, bool one_based,
                                                           std::size_t batch_entries) {
  return std::make_unique<SortedEdgeListStream>(path, one_based, batch_entries);
}

} // namespace gnnpart::streaming
