#pragma once
// A coarse level's net -> pins arrays packed into bytes while the level waits for its refinement
// (coarsening.h, ParkedLevel). Per net: its size, its weight (if the nets are weighted) and its
// pins as gaps, each a LEB128 varint (7 bits per byte). Pins are sorted within a net (as
// Hypergraph keeps them), so a gap of a coarse web-graph net takes 1-3 bytes instead of 4,
// and a net's offset and weight about 2 bytes instead of 16. Nets are packed in chunks of
// kChunkNets with each chunk's first byte and first pin recorded, so packing, unpacking and
// the contraction of the next level (which reads the packed nets, contraction.h) run over
// chunks in parallel. Vertex weights stay as they are (one array per level, read in order).
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/hypergraph.h"

namespace gnnpart::hg {

class PackedNets {
public:
  static constexpr NetID kChunkNets = 1024;

  PackedNets() = default;
  // Packs `arrays` (pins sorted within each net) and frees them; parallel, deterministic.
  PackedNets(NodeID num_nodes, Hypergraph::Arrays arrays);
  // Packs the nets of these arrays (copies the vertex weights; for an input level whose pins
  // are taken out: Hypergraph::take_nets).
  PackedNets(NodeID num_nodes, std::span<const EdgeID> offsets, std::span<const NodeID> pins,
             std::span<const Weight> net_weights, int ncon, std::span<const Weight> vertex_weights);
  PackedNets(PackedNets&&) noexcept = default;
  PackedNets& operator=(PackedNets&&) noexcept = default;
  PackedNets(const PackedNets&) = delete;
  PackedNets& operator=(const PackedNets&) = delete;

  // True when nothing is packed here (a default-constructed or moved-from object).
  bool empty() const { return chunk_pin_.empty(); }
  NodeID num_nodes() const { return num_nodes_; }
  NetID num_nets() const { return num_nets_; }
  EdgeID num_pins() const { return chunk_pin_.empty() ? 0 : chunk_pin_.back(); }
  std::size_t num_chunks() const { return chunk_pin_.empty() ? 0 : chunk_pin_.size() - 1; }
  int ncon() const { return ncon_; }
  std::span<const Weight> vertex_weights() const { return vertex_weights_; }
  // Bytes of the packed nets (the vertex weights not counted).
  std::size_t packed_bytes() const { return bytes_.size(); }

  // f(e, pins of e, w(e)) for the nets of chunk c, in order; `buffer` holds one net's pins.
  template <typename F> void for_each_net(std::size_t c, std::vector<NodeID>& buffer, F&& f) const;

  // The arrays as they were given (parallel); leaves this empty.
  Hypergraph::Arrays unpack();

private:
  void pack(std::span<const EdgeID> offsets, std::span<const NodeID> pins,
            std::span<const Weight> net_weights);
  static std::uint64_t read(const std::uint8_t*& p) {
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t byte = *p++;
      value |= std::uint64_t{byte & 0x7Fu} << shift;
      if (byte < 0x80)
        return value;
    }
  }
  // Weights are zigzag-coded (a negative net weight stays exact).
  static Weight unzigzag(std::uint64_t v) {
    return static_cast<Weight>(v >> 1) ^ -static_cast<Weight>(v & 1);
  }

  NodeID num_nodes_ = 0;
  NetID num_nets_ = 0;
  bool net_weights_ = false;
  int ncon_ = 1;
  std::vector<Weight> vertex_weights_;
  std::vector<std::uint8_t> bytes_;
  std::vector<EdgeID> chunk_byte_; // per chunk: its first byte; one more entry at the end
  std::vector<EdgeID> chunk_pin_;  // per chunk: its first pin; one more entry at the end
};

// An input level's nets (offsets and pins), packed while coarser levels are worked on
// (HgContext::parkable_input): taken out of the hypergraph and packed on construction, put back
// (the offsets rebuilt from the packed sizes) by restore() or, at the latest, when this goes
// away (an exception between coarsening and refinement; running out of memory then ends the
// program, as the hypergraph could not be given back).
class PackedInput {
public:
  PackedInput() = default;
  explicit PackedInput(Hypergraph& input);
  PackedInput(PackedInput&& other) noexcept
      : input_(std::exchange(other.input_, nullptr)), nets_(std::move(other.nets_)) {}
  PackedInput& operator=(PackedInput&& other) noexcept;
  ~PackedInput() { restore(); }

  bool empty() const { return input_ == nullptr; }
  const PackedNets& nets() const { return nets_; }
  // Gives the pins back to the hypergraph (nothing if empty).
  void restore();

private:
  Hypergraph* input_ = nullptr;
  PackedNets nets_;
};

template <typename F>
void PackedNets::for_each_net(std::size_t c, std::vector<NodeID>& buffer, F&& f) const {
  const std::uint8_t* p = bytes_.data() + chunk_byte_[c];
  const NetID first = static_cast<NetID>(c * kChunkNets);
  const NetID last = std::min<NetID>(num_nets_, first + kChunkNets);
  for (NetID e = first; e < last; ++e) {
    const auto size = static_cast<std::size_t>(read(p));
    const Weight w = net_weights_ ? unzigzag(read(p)) : 1;
    buffer.resize(size);
    NodeID pin = 0;
    for (std::size_t i = 0; i < size; ++i) {
      pin += static_cast<NodeID>(read(p));
      buffer[i] = pin;
    }
    f(e, std::span<const NodeID>(buffer), w);
  }
}

} // namespace gnnpart::hg
