#pragma once
// A residual flow network in CSR form and an incremental maximum flow between two growing sets
// of terminal nodes: shortest augmenting paths along distance labels (ISAP: labels from one
// BFS, then raised locally at dead ends, with the gap heuristic and an occasional fresh BFS),
// which needed half the time of Dinic's phases of BFS + blocking flow on the flow refiner's
// networks. FlowCutter-style refinement only ever adds terminals, which keeps the current flow
// feasible, so each step augments the flow of the previous one instead of starting from zero,
// and the labels of the last search stay usable while no target was added.
// Arcs come in pairs (an arc and its reverse, both with a capacity: 0 for a directed arc, the
// same capacity for an undirected edge). All buffers are reused across problems.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::hg {

class FlowNetwork {
public:
  using Node = std::uint32_t;
  using Arc = std::uint32_t;
  enum Terminal : std::uint8_t { kNone = 0, kSource = 1, kSink = 2 };
  // Larger than any finite cut can be; flows stay far below it, so residuals never overflow.
  static constexpr Weight kInfinite = std::numeric_limits<Weight>::max() / 4;

  // Building: reset, add arc pairs, finalize. Throws Unsupported beyond 2^32 - 1 arcs.
  void reset(Node num_nodes);
  // Inline, one record a pair: the flow refiner adds about 660 K pairs at wing k = 32, and the
  // call with four push_backs took 45 instructions each.
  void add_arc(Node from, Node to, Weight capacity, Weight reverse_capacity = 0) {
    pairs_.push_back({from, to, capacity, reverse_capacity});
  }
  Node add_node();
  void finalize();

  Node num_nodes() const { return num_nodes_; }
  std::span<const Arc> offsets() const { return offsets_; }
  Node head(Arc a) const { return head_[a]; }
  Arc reverse(Arc a) const { return reverse_[a]; }
  Weight residual(Arc a) const { return residual_[a]; }

  // Terminals only grow; a node is never both.
  Terminal terminal(Node u) const { return static_cast<Terminal>(terminal_[u]); }
  void make_terminal(Node u, Terminal t);

  // Augments until no path from a source to a sink is left, or until the flow value reaches
  // `bound` (then the flow is not necessarily maximum). Returns the flow value.
  Weight augment(Weight bound) { return augment_from(kSource, sources_, bound); }
  // The same with paths from `start` (terminals of side `from`) to the other side's
  // terminals, backwards along residual arcs if `from` is kSink. Enough after new terminals
  // `start` were added to a side whose other terminals could reach no opposite terminal: such
  // a set has no residual arc leaving it, and augmenting paths from outside never enter it, so
  // it stays closed. Paths do not pass through terminals of side `from`.
  Weight augment_from(Terminal from, std::span<const Node> start, Weight bound);
  Weight flow_value() const { return flow_; }
  // Arcs the last augment_from filled to capacity (in the direction the flow went).
  std::span<const Arc> drained() const { return drained_; }

  // Nodes reachable from a source in the residual network (side kSource), or from which a sink
  // is reachable (side kSink). Marks reached nodes with `stamp` in `mark` (sized num_nodes),
  // lists them in `reached`, and sets parent[v] to v's arc towards the node it was reached
  // from (a search tree; terminals are its roots).
  void reachable(Terminal side, std::vector<std::uint32_t>& mark, std::uint32_t stamp,
                 std::vector<Node>& reached, std::vector<Arc>& parent);
  // Continues such a search from reached[from, end) (nodes already marked), e.g. after new
  // terminals: if they created no augmenting path the residual network is the same, and after
  // augmenting from them the old set is closed and untouched (see augment_from), so the
  // reachable set of the old terminals stays valid and only grows by what the new ones reach.
  void extend_reachable(Terminal side, std::vector<std::uint32_t>& mark, std::uint32_t stamp,
                        std::vector<Node>& reached, std::vector<Arc>& parent, std::size_t from);
  // Whether the tree arc a (from a child to its parent) of side `side` still carries the
  // child's reachability.
  bool tree_arc_usable(Terminal side, Arc a) const {
    return (side == kSource ? residual_[reverse_[a]] : residual_[a]) > 0;
  }

private:
  // Residual capacity of arc a in the search direction: forward, u = tail can push into
  // head(a); backward, head(a) can push into u.
  template <bool kForward> Weight usable(Arc a) const {
    return kForward ? residual_[a] : residual_[reverse_[a]];
  }
  template <bool kForward> Weight augment_in(std::span<const Node> start, Weight bound);
  // Exact distances to the targets; resets the current arcs.
  template <bool kForward> void global_relabel();

  Node num_nodes_ = 0;
  // Arc pairs before finalize.
  struct ArcPair {
    Node tail, head;
    Weight capacity, reverse_capacity;
  };
  std::vector<ArcPair> pairs_;
  // CSR.
  std::vector<Arc> offsets_;
  std::vector<Node> head_;
  std::vector<Arc> reverse_;
  std::vector<Weight> residual_;
  // Flow state.
  std::vector<std::uint8_t> terminal_;
  std::vector<Node> sources_, sinks_;
  Weight flow_ = 0;
  // Search scratch.
  std::vector<Arc> current_;
  std::vector<Arc> drained_;
  std::vector<Node> queue_;
  std::vector<Arc> path_;
  std::vector<std::int32_t> label_; // distance labels (num_nodes_: no target reachable)
  std::vector<Node> count_;         // nodes per label
  Node relabels_ = 0;
  enum class LabelState : std::uint8_t { kNone, kForward, kBackward };
  LabelState label_state_ = LabelState::kNone; // which search the labels are valid for
};

} // namespace gnnpart::hg
