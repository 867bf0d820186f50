#pragma once
// Per vertex, a short list of (block, count) pairs in a fixed slot, for refiners that track
// which blocks a vertex's closed neighbourhood touches (lambda) and how often. Slots are sized
// once (e.g. min(deg + 1, k)), so an update never allocates; lists are unsorted, since they are
// short and scanned whole.
#include <cassert>
#include <vector>

#include "core/types.h"

namespace gnnpart {

class BlockCountLists {
public:
  struct Entry {
    BlockID block;
    NodeID count;
  };

  // capacity(u): the most distinct blocks vertex u's list will hold.
  template <typename Capacity>
  BlockCountLists(NodeID n, Capacity&& capacity)
      : offsets_(static_cast<std::size_t>(n) + 1, 0), size_(n, 0) {
    for (NodeID u = 0; u < n; ++u)
      offsets_[u + 1] = offsets_[u] + capacity(u);
    entries_.resize(offsets_.back());
  }

  NodeID count(NodeID w, BlockID b) const {
    for (const Entry* e = begin(w); e != end(w); ++e)
      if (e->block == b)
        return e->count;
    return 0;
  }
  NodeID lambda(NodeID w) const { return size_[w]; }
  const Entry* begin(NodeID w) const { return entries_.data() + offsets_[w]; }
  const Entry* end(NodeID w) const { return begin(w) + size_[w]; }
  template <typename F> void for_each(NodeID w, F&& f) const {
    for (const Entry* e = begin(w); e != end(w); ++e)
      f(e->block);
  }
  void clear(NodeID w) { size_[w] = 0; }

  void add(NodeID w, BlockID b, NodeID by = 1) {
    Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      if (e[i].block == b) {
        e[i].count += by;
        return;
      }
    assert(offsets_[w] + size_[w] < offsets_[w + 1]);
    e[size_[w]++] = {b, by};
  }
  void remove(NodeID w, BlockID b) {
    Entry* e = entries_.data() + offsets_[w];
    for (NodeID i = 0; i < size_[w]; ++i)
      if (e[i].block == b) {
        if (--e[i].count == 0)
          e[i] = e[--size_[w]];
        return;
      }
  }

private:
  std::vector<EdgeID> offsets_;
  std::vector<NodeID> size_;
  std::vector<Entry> entries_;
};

} // namespace gnnpart
