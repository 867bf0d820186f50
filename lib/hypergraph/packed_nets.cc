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

// The nets to pack.
struct NetArrays {
  std::span<const EdgeID> offsets;
  std::span<const NodeID> pins;
  std::span<const Weight> weights;
};

// Net e: its size, its weight (weighted nets only), its pins as gaps from the previous one (the
// first from 0).
template <typename Out> void put_net(const NetArrays& a, NetID e, Out& out) {
  const EdgeID first = a.offsets[e];
  const EdgeID last = a.offsets[e + 1];
  out.put(last - first);
  if (!a.weights.empty())
    out.put(zigzag(a.weights[e]));
  NodeID previous = 0;
  for (EdgeID i = first; i < last; ++i) {
    out.put(a.pins[i] - previous);
    previous = a.pins[i];
  }
}

} // namespace

PackedNets::PackedNets(NodeID num_nodes, Hypergraph::Arrays arrays)
    : num_nodes_(num_nodes), ncon_(arrays.ncon), vertex_weights_(std::move(arrays.vertex_weights)) {
  pack(arrays.net_offsets, arrays.pins, arrays.net_weights);
}

PackedNets::PackedNets(NodeID num_nodes, std::span<const EdgeID> offsets,
                       std::span<const NodeID> pins, std::span<const Weight> net_weights, int ncon,
                       std::span<const Weight> vertex_weights)
    : num_nodes_(num_nodes), ncon_(ncon),
      vertex_weights_(vertex_weights.begin(), vertex_weights.end()) {
  pack(offsets, pins, net_weights);
}

void PackedNets::pack(std::span<const EdgeID> offsets, std::span<const NodeID> pins,
                      std::span<const Weight> net_weights) {
  const NetArrays arrays{offsets, pins, net_weights};
  num_nets_ = static_cast<NetID>(offsets.size() - 1);
  net_weights_ = !net_weights.empty();
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
      chunk_pin_[c] = offsets[first];
    }
  });
  for (std::size_t c = 0; c < chunks; ++c)
    chunk_byte_[c + 1] += chunk_byte_[c];
  chunk_pin_[chunks] = offsets.back();
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

PackedInput::PackedInput(Hypergraph& input) {
  Hypergraph::Nets nets = input.take_nets();
  try {
    nets_ = PackedNets(input.num_nodes(), nets.offsets, nets.pins, input.net_weights(),
                       input.ncon(), input.vertex_weights());
  } catch (...) {
    input.put_nets(std::move(nets));
    throw;
  }
  input_ = &input;
}

PackedInput& PackedInput::operator=(PackedInput&& other) noexcept {
  if (this != &other) {
    restore();
    input_ = std::exchange(other.input_, nullptr);
    nets_ = std::move(other.nets_);
  }
  return *this;
}

void PackedInput::restore() {
  if (input_ == nullptr)
    return;
  Hypergraph::Arrays a = nets_.unpack(); // the offsets again from the nets' sizes
  input_->put_nets({std::move(a.net_offsets), std::move(a.pins)});
  input_ = nullptr;
}

} // namespace gnnpart::hg
