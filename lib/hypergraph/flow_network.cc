#include "hypergraph/flow_network.h"

#include <algorithm>

#include "core/errors.h"

namespace gnnpart::hg {

void FlowNetwork::reset(Node num_nodes) {
  num_nodes_ = num_nodes;
  pairs_.clear();
}

FlowNetwork::Node FlowNetwork::add_node() {
  if (num_nodes_ == std::numeric_limits<Node>::max())
    throw Unsupported("flow network with more than 2^32 - 1 nodes");
  return num_nodes_++;
}

void FlowNetwork::finalize() {
  const std::size_t pairs = pairs_.size();
  if (2 * pairs >= std::numeric_limits<Arc>::max())
    throw Unsupported("flow network with more than 2^32 - 1 arcs");
  offsets_.assign(static_cast<std::size_t>(num_nodes_) + 1, 0);
  for (const ArcPair& p : pairs_) {
    ++offsets_[p.tail + 1];
    ++offsets_[p.head + 1];
  }
  for (Node u = 0; u < num_nodes_; ++u)
    offsets_[u + 1] += offsets_[u];
  head_.resize(2 * pairs);
  reverse_.resize(2 * pairs);
  residual_.resize(2 * pairs);
  current_.assign(offsets_.begin(), offsets_.end() - 1); // fill positions
  for (const ArcPair& p : pairs_) {
    const Node u = p.tail, v = p.head;
    const Arc a = current_[u]++;
    const Arc b = current_[v]++;
    head_[a] = v;
    residual_[a] = p.capacity;
    reverse_[a] = b;
    head_[b] = u;
    residual_[b] = p.reverse_capacity;
    reverse_[b] = a;
  }
  terminal_.assign(num_nodes_, kNone);
  label_state_ = LabelState::kNone;
  sources_.clear();
  sinks_.clear();
  flow_ = 0;
  label_.resize(num_nodes_);
  count_.resize(static_cast<std::size_t>(num_nodes_) + 1);
}

void FlowNetwork::make_terminal(Node u, Terminal t) {
  if (terminal_[u] == t)
    return;
  if (terminal_[u] != kNone || t == kNone)
    throw InvalidParameter("a flow network node cannot change its terminal side");
  terminal_[u] = t;
  (t == kSource ? sources_ : sinks_).push_back(u);
  // A new target (label 0) breaks the labels of searches towards that side.
  if ((t == kSink) == (label_state_ == LabelState::kForward))
    label_state_ = LabelState::kNone;
}

template <bool kForward> void FlowNetwork::global_relabel() {
  constexpr std::uint8_t own = kForward ? kSource : kSink;
  const auto n = static_cast<std::int32_t>(num_nodes_);
  std::fill(label_.begin(), label_.end(), n);
  queue_.clear();
  for (Node t : kForward ? sinks_ : sources_) {
    label_[t] = 0;
    queue_.push_back(t);
  }
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const Node v = queue_[i];
    const Arc end = offsets_[v + 1]; // (the label stores could alias it)
    const std::int32_t next = label_[v] + 1;
    for (Arc a = offsets_[v]; a < end; ++a) {
      const Node u = head_[a];
      if (label_[u] != n || usable<kForward>(reverse_[a]) <= 0)
        continue;
      label_[u] = next;
      if (terminal_[u] != own) // paths end at own terminals, they do not pass through
        queue_.push_back(u);
    }
  }
  std::fill(count_.begin(), count_.end(), 0);
  for (Node u = 0; u < num_nodes_; ++u)
    ++count_[label_[u]];
  std::copy(offsets_.begin(), offsets_.end() - 1, current_.begin());
  relabels_ = 0;
}

template <bool kForward> Weight FlowNetwork::augment_in(std::span<const Node> start, Weight bound) {
  constexpr std::uint8_t own = kForward ? kSource : kSink;
  constexpr std::uint8_t target = kForward ? kSink : kSource;
  const auto n = static_cast<std::int32_t>(num_nodes_);
  // Labels of an earlier search in this direction stay valid lower bounds unless targets were
  // added or flow was pushed the other way since.
  const LabelState wanted = kForward ? LabelState::kForward : LabelState::kBackward;
  if (label_state_ != wanted)
    global_relabel<kForward>(); // (resets the current arcs)
  else
    std::copy(offsets_.begin(), offsets_.end() - 1, current_.begin());
  label_state_ = wanted;
  drained_.clear();
  for (Node s : start) {
    path_.clear();
    Node u = s;
    while (flow_ < bound && label_[s] < n) {
      if (terminal_[u] == target) {
        Weight f = bound - flow_;
        for (Arc a : path_)
          f = std::min(f, usable<kForward>(a));
        for (Arc a : path_) {
          const Arc down = kForward ? a : reverse_[a]; // the arc the flow goes along
          residual_[down] -= f;
          residual_[reverse_[down]] += f;
          if (residual_[down] == 0)
            drained_.push_back(down);
        }
        flow_ += f;
        path_.clear();
        u = s;
        continue;
      }
      // The current arc in a local, stored once: stores through current_[u] could alias the
      // labels and offsets (32-bit words too), which were read again on every arc.
      const Arc end = offsets_[u + 1];
      const std::int32_t below = label_[u] - 1;
      Arc a = current_[u];
      for (; a < end; ++a)
        if (usable<kForward>(a) > 0 && label_[head_[a]] == below && terminal_[head_[a]] != own)
          break;
      current_[u] = a;
      if (a < end) {
        path_.push_back(a);
        u = head_[a];
        continue;
      }
      // Relabel u to one more than its lowest residual neighbour.
      std::int32_t lowest = n;
      for (Arc a = offsets_[u]; a < offsets_[u + 1]; ++a)
        if (usable<kForward>(a) > 0 && terminal_[head_[a]] != own)
          lowest = std::min(lowest, label_[head_[a]] + 1);
      const std::int32_t old = label_[u];
      --count_[old];
      if (count_[old] == 0) {
        // Gap: nothing is left at distance `old`, so nothing above it reaches a target.
        for (Node w = 0; w < num_nodes_; ++w)
          if (label_[w] > old && label_[w] < n) {
            --count_[label_[w]];
            label_[w] = n;
            ++count_[n];
          }
        label_[u] = n;
      } else {
        label_[u] = std::min(lowest, n);
      }
      ++count_[label_[u]];
      current_[u] = offsets_[u];
      if (++relabels_ > num_nodes_) { // exact distances again now and then
        global_relabel<kForward>();
        path_.clear();
        u = s;
        continue;
      }
      if (!path_.empty()) {
        u = head_[reverse_[path_.back()]];
        path_.pop_back();
      }
    }
  }
  return flow_;
}

Weight FlowNetwork::augment_from(Terminal from, std::span<const Node> start, Weight bound) {
  for (Node s : start)
    if (terminal_[s] != from)
      throw InvalidParameter("augmenting paths start at terminals of their side");
  return from == kSource ? augment_in<true>(start, bound) : augment_in<false>(start, bound);
}

void FlowNetwork::reachable(Terminal side, std::vector<std::uint32_t>& mark, std::uint32_t stamp,
                            std::vector<Node>& reached, std::vector<Arc>& parent) {
  reached.clear();
  for (Node t : side == kSource ? sources_ : sinks_) {
    mark[t] = stamp;
    reached.push_back(t);
  }
  extend_reachable(side, mark, stamp, reached, parent, 0);
}

void FlowNetwork::extend_reachable(Terminal side, std::vector<std::uint32_t>& mark,
                                   std::uint32_t stamp, std::vector<Node>& reached,
                                   std::vector<Arc>& parent, std::size_t from) {
  for (std::size_t i = from; i < reached.size(); ++i) {
    const Node u = reached[i];
    for (Arc a = offsets_[u]; a < offsets_[u + 1]; ++a) {
      const Node v = head_[a];
      if (mark[v] == stamp)
        continue;
      // Forward: u can push into v. Backward: v can push into u.
      if ((side == kSource ? residual_[a] : residual_[reverse_[a]]) > 0) {
        mark[v] = stamp;
        parent[v] = reverse_[a];
        reached.push_back(v);
      }
    }
  }
}

} // namespace gnnpart::hg
