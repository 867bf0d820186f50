#include "hypergraph/flow_network.h"

#include <algorithm>

#include "core/errors.h"

namespace gnnpart {

void FlowNetwork::reset(Node num_nodes) {
  num_nodes_ = num_nodes;
  tail_in_.clear();
  head_in_.clear();
  capacity_in_.clear();
  reverse_capacity_in_.clear();
}

void FlowNetwork::add_arc(Node from, Node to, Weight capacity, Weight reverse_capacity) {
  tail_in_.push_back(from);
  head_in_.push_back(to);
  capacity_in_.push_back(capacity);
  reverse_capacity_in_.push_back(reverse_capacity);
}

FlowNetwork::Node FlowNetwork::add_node() {
  if (num_nodes_ == std::numeric_limits<Node>::max())
    throw Unsupported("flow network with more than 2^32 - 1 nodes");
  return num_nodes_++;
}

void FlowNetwork::finalize() {
  const std::size_t pairs = tail_in_.size();
  if (2 * pairs >= std::numeric_limits<Arc>::max())
    throw Unsupported("flow network with more than 2^32 - 1 arcs");
  offsets_.assign(static_cast<std::size_t>(num_nodes_) + 1, 0);
  for (std::size_t i = 0; i < pairs; ++i) {
    ++offsets_[tail_in_[i] + 1];
    ++offsets_[head_in_[i] + 1];
  }
  for (Node u = 0; u < num_nodes_; ++u)
    offsets_[u + 1] += offsets_[u];
  head_.resize(2 * pairs);
  reverse_.resize(2 * pairs);
  residual_.resize(2 * pairs);
  current_.assign(offsets_.begin(), offsets_.end() - 1); // fill positions
  for (std::size_t i = 0; i < pairs; ++i) {
    const Node u = tail_in_[i], v = head_in_[i];
    const Arc a = current_[u]++;
    const Arc b = current_[v]++;
    head_[a] = v;
    residual_[a] = capacity_in_[i];
    reverse_[a] = b;
    head_[b] = u;
    residual_[b] = reverse_capacity_in_[i];
    reverse_[b] = a;
  }
  terminal_.assign(num_nodes_, kNone);
  sources_.clear();
  sinks_.clear();
  flow_ = 0;
  level_.resize(num_nodes_);
}

void FlowNetwork::make_terminal(Node u, Terminal t) {
  if (terminal_[u] == t)
    return;
  if (terminal_[u] != kNone || t == kNone)
    throw InvalidParameter("a flow network node cannot change its terminal side");
  terminal_[u] = t;
  (t == kSource ? sources_ : sinks_).push_back(u);
}

template <bool kForward> bool FlowNetwork::compute_levels(std::span<const Node> start) {
  constexpr std::uint8_t own = kForward ? kSource : kSink;
  constexpr std::uint8_t target = kForward ? kSink : kSource;
  std::fill(level_.begin(), level_.end(), -1);
  queue_.clear();
  for (Node s : start) {
    level_[s] = 0;
    queue_.push_back(s);
  }
  // Nodes at or beyond the level of the first target cannot lie on a shortest path to one.
  std::int32_t target_level = std::numeric_limits<std::int32_t>::max();
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const Node u = queue_[i];
    const std::int32_t next = level_[u] + 1;
    if (next > target_level)
      break;
    for (Arc a = offsets_[u]; a < offsets_[u + 1]; ++a) {
      const Node v = head_[a];
      if (usable<kForward>(a) <= 0 || level_[v] >= 0 || terminal_[v] == own)
        continue;
      level_[v] = next;
      if (terminal_[v] == target)
        target_level = next;
      else if (next < target_level)
        queue_.push_back(v);
    }
  }
  return target_level != std::numeric_limits<std::int32_t>::max();
}

template <bool kForward> Weight FlowNetwork::push_path(Node s, Weight limit) {
  constexpr std::uint8_t target = kForward ? kSink : kSource;
  path_.clear();
  Node u = s;
  while (true) {
    if (terminal_[u] == target) {
      Weight f = limit;
      for (Arc a : path_)
        f = std::min(f, usable<kForward>(a));
      for (Arc a : path_) {
        const Arc down = kForward ? a : reverse_[a]; // the arc the flow goes along
        residual_[down] -= f;
        residual_[reverse_[down]] += f;
      }
      return f;
    }
    bool advanced = false;
    for (Arc& a = current_[u]; a < offsets_[u + 1]; ++a) {
      const Node v = head_[a];
      if (usable<kForward>(a) > 0 && level_[v] == level_[u] + 1) {
        path_.push_back(a);
        u = v;
        advanced = true;
        break;
      }
    }
    if (advanced)
      continue;
    level_[u] = -1; // dead end for the rest of this phase
    if (path_.empty())
      return 0;
    const Arc a = path_.back();
    path_.pop_back();
    u = head_[reverse_[a]];
    ++current_[u];
  }
}

template <bool kForward> Weight FlowNetwork::augment_in(std::span<const Node> start, Weight bound) {
  while (flow_ < bound && compute_levels<kForward>(start)) {
    std::copy(offsets_.begin(), offsets_.end() - 1, current_.begin());
    for (std::size_t i = 0; i < start.size() && flow_ < bound; ++i) {
      while (flow_ < bound) {
        const Weight f = push_path<kForward>(start[i], bound - flow_);
        if (f == 0)
          break;
        flow_ += f;
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
                            std::vector<Node>& reached) {
  reached.clear();
  for (Node t : side == kSource ? sources_ : sinks_) {
    mark[t] = stamp;
    reached.push_back(t);
  }
  extend_reachable(side, mark, stamp, reached, 0);
}

void FlowNetwork::extend_reachable(Terminal side, std::vector<std::uint32_t>& mark,
                                   std::uint32_t stamp, std::vector<Node>& reached,
                                   std::size_t from) {
  for (std::size_t i = from; i < reached.size(); ++i) {
    const Node u = reached[i];
    for (Arc a = offsets_[u]; a < offsets_[u + 1]; ++a) {
      const Node v = head_[a];
      if (mark[v] == stamp)
        continue;
      // Forward: u can push into v. Backward: v can push into u.
      if ((side == kSource ? residual_[a] : residual_[reverse_[a]]) > 0) {
        mark[v] = stamp;
        reached.push_back(v);
      }
    }
  }
}

} // namespace gnnpart
