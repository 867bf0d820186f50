#include "hypergraph/packed_nets.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace gnnpart::hg {

namespace {

// LEB128 output that only counts the bytes (pass 1) or writes them (pass 2).
struct ByteCounter {
  std::size_t bytes = 0;
  void put(std::uint64_t v) {
    for (++bytes; v >= 0x80; v >>= 7)
      ++bytes;
  }
};
struct ByteWriter {
  std::uint8_t* p;
  void put(std::uint64_t v) {
    for (; v >= 0x80; v >>= 7)
      *p++ = static_cast<std::uint8_t>(v | 0x80);
    *p++ = static_cast<std::uint8_t>(v);
  }
};

std::uint64_t zigzag(Weight w) {
  return (static_cast<std::uint64_t>(w) << 1) ^ static_cast<std::uint64_t>(w >> 63);
}

// Net e: its size, its weight (weighted nets only), its pins as gaps from the previous one (the
// first from 0).
template <typename Out> void put_net(const Hypergraph::Arrays& a, NetID e, Out& out) {
  const EdgeID first = a.net_offsets[e];
  const EdgeID last = a.net_offsets[e + 1];
  out.put(last - first);
  if (!a.net_weights.empty())
    out.put(zigzag(a.net_weights[e]));
  NodeID previous = 0;
  for (EdgeID i = first; i < last; ++i) {
    out.put(a.pins[i] - previous);
    previous = a.pins[i];
  }
}

} // namespace

PackedNets::PackedNets(NodeID num_nodes, Hypergraph::Arrays arrays)
    : num_nodes_(num_nodes), num_nets_(static_cast<NetID>(arrays.net_offsets.size() - 1)),
      net_weights_(!arrays.net_weights.empty()), ncon_(arrays.ncon),
      vertex_weights_(std::move(arrays.vertex_weights)) {
  const std::size_t chunks = (std::size_t{num_nets_} + kChunkNets - 1) / kChunkNets;
  const auto nets_of = [&](std::size_t c) {
    const auto first = static_cast<NetID>(c * kChunkNets);
    return std::pair<NetID, NetID>(first, std::min<NetID>(num_nets_, first + kChunkNets));
  };
  chunk_byte_.assign(chunks + 1, 0);
  chunk_pin_.assign(chunks + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const auto& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      ByteCounter counter;
      const auto [first, last] = nets_of(c);
      for (NetID e = first; e < last; ++e)
        put_net(arrays, e, counter);
      chunk_byte_[c + 1] = counter.bytes;
      chunk_pin_[c] = arrays.net_offsets[first];
    }
  });
  for (std::size_t c = 0; c < chunks; ++c)
    chunk_byte_[c + 1] += chunk_byte_[c];
  chunk_pin_[chunks] = arrays.net_offsets.back();
  bytes_.resize(chunk_byte_[chunks]);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const auto& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      ByteWriter writer{bytes_.data() + chunk_byte_[c]};
      const auto [first, last] = nets_of(c);
      for (NetID e = first; e < last; ++e)
        put_net(arrays, e, writer);
    }
  });
}

Hypergraph::Arrays PackedNets::unpack() {
  Hypergraph::Arrays a;
  a.net_offsets.resize(std::size_t{num_nets_} + 1);
  a.net_offsets[0] = 0;
  a.pins.resize(num_pins());
  if (net_weights_)
    a.net_weights.resize(num_nets_);
  tbb::enumerable_thread_specific<std::vector<NodeID>> buffers;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, num_chunks(), 1), [&](const auto& r) {
    std::vector<NodeID>& buffer = buffers.local();
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      EdgeID pos = chunk_pin_[c];
      for_each_net(c, buffer, [&](NetID e, std::span<const NodeID> pins, Weight w) {
        std::copy(pins.begin(), pins.end(), a.pins.begin() + pos);
        pos += pins.size();
        a.net_offsets[e + 1] = pos;
        if (net_weights_)
          a.net_weights[e] = w;
      });
    }
  });
  a.ncon = ncon_;
  a.vertex_weights = std::move(vertex_weights_);
  *this = PackedNets();
  return a;
}

} // namespace gnnpart::hg
