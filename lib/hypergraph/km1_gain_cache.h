#pragma once
// Gain cache for the km1 objective (as Mt-KaHyPar's): for every vertex u
//   benefit(u)   = sum of w(e) over nets e of u with Phi(e, block(u)) = 1
//   incident(u)  = sum of w(e) over all nets of u
//   conn(u, t)   = sum of w(e) over nets e of u with Phi(e, t) >= 1
// so gain(u, t) = benefit(u) - (incident(u) - conn(u, t)). A move updates the cache in
// O(|e|) only for nets whose pin counts cross 0/1 in `from` or 1/2 in `to`.
// conn is a row of k entries per vertex, as narrow as the vertex allows: conn(u, t) is at most
// incident(u), so u's row takes b bits per entry when incident(u) < 2^b, for b = 3 to 8 (unit
// nets: fewer than 2^b nets; most vertices of a sparse graph's column-net model have fewer than
// 256), 16 below 2^16, else 32. Web graphs' vertices with 16-127 nets (cnr-2000: 79,761 of
// them) take 5-7 bits, not a whole byte.
// A vertex with few nets for k has no row (`has_row`): fewer than k / kRowDivisor nets (at
// k = 128, fewer than 8: most vertices of a sparse graph's column-net model, whose 4-bit rows
// would take 64 bytes each). Its conn(u, t) is counted when asked, one bit test of
// Phi(e, t) >= 1 per net e of u (the partition's connectivity sets), and its best move looks at
// the blocks in the union of its nets' sets only. Its benefit is kept as every vertex's, and
// the updates that would go to its row go to a sink row that nothing reads, so move() updates
// a net's pins without a branch.
// Rows of one width lie in one array, in vertex order, each a whole number of bytes; a
// per-vertex word holds u's row number and width. Every width is read and updated through one
// unaligned 32-bit word, without a branch on the width per pin (an entry of up to 8 bits lies
// within the word from its first byte at any bit offset).
// One cache serves the FM calls of a whole uncoarsening: rebuild() keeps its memory, so the rows
// are allocated and paged in once per cycle, not per call; release() gives them back before
// the next cycle coarsens.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "hypergraph/gain_computer.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

class Km1GainCache {
public:
  Km1GainCache() = default;
  // The cache of phg's current assignment, for hypergraphs known to fit (unit-weight nets of a
  // bisection).
  explicit Km1GainCache(const PartitionedHypergraph& phg);

  // Makes this the cache of phg's current assignment (parallel), reusing the memory. False
  // (and unusable) when some vertex's incident net weight does not fit into 31 bits, or n is
  // 2^29 or more (row numbers take 29 bits).
  bool rebuild(const PartitionedHypergraph& phg);
  // Frees the memory (between multilevel cycles: the next coarsening does not need it).
  void release();
  // Whether this is the cache of phg as it is now: built from it (rebuild, not release()d
  // since), and every change of its assignment since made through move(). Then a rebuild
  // would give the same cache (relaxed FM after FM on the same level skips it).
  bool built_for(const PartitionedHypergraph& phg) const {
    return built_ && phg_ == &phg && state_ == phg.state();
  }

  Weight gain(NodeID u, BlockID to) const { return Weight{base_[u]} + conn(u, to); }
  Weight conn(NodeID u, BlockID t) const {
    return has_row(u) ? load(slot(u, t)) : counted_conn(u, t);
  }
  // False for a vertex whose connections are counted when asked (see above).
  bool has_row(NodeID u) const { return row_[u] != rowless_; }
  // benefit(u) - incident(u): a gain without its conn(u, t). Only this difference is kept (4
  // bytes a vertex, not 8 for both; 1.24 MiB of cnr-2000's input level, issue #20), as every
  // gain reads it: incident(u) is needed only for u's width class, while the cache is built.
  Weight base(NodeID u) const { return base_[u]; }
  // f(t, conn(u, t)) for every block t in increasing order (read-only: threads may share it).
  template <typename F> void for_each_conn(NodeID u, F&& f) const {
    if (!has_row(u)) {
      BlockID next = 0;
      for_each_counted(u, [&](BlockID t, Weight ct) {
        for (; next < t; ++next)
          f(next, Weight{0});
        f(t, ct);
        next = t + 1;
      });
      for (; next < k_; ++next)
        f(next, Weight{0});
      return;
    }
    with_row(u, [&](auto row) {
      row.for_each(k_, [&](BlockID t, std::int32_t c) { f(t, Weight{c}); });
    });
  }
  // The same for the blocks with conn(u, t) > 0 only: a row's words of zero entries are
  // skipped (most of a row at large k).
  template <typename F> void for_each_positive_conn(NodeID u, F&& f) const {
    if (!has_row(u)) {
      for_each_counted(u, f);
      return;
    }
    with_row(u, [&](auto row) {
      row.for_each_nonzero(k_, [&](BlockID t, std::int32_t c) { f(t, Weight{c}); });
    });
  }
  // An upper bound of gain(u, t) over all blocks t != from = block(u), feasible or not:
  // benefit(u) - incident(u) + the largest conn(u, t). One branch-free pass over u's row, where
  // best_move weighs the blocks one by one: FM rejects most seed candidates with it. Without a
  // row, the largest conn(u, t) is bounded by the weight of u's nets that touch a block other
  // than `from` (one look at each net's set).
  Weight gain_bound(NodeID u, BlockID from) const;
  // Best feasible target among blocks other than block(u). Ties: lighter block, lower id.
  MoveCandidate best_move(const PartitionedHypergraph& phg, NodeID u,
                          std::span<const Weight> max_weights) const;

  // The same, among `candidates` only (other than block(u), with conn(u, t) > 0). Inline for a
  // vertex with a row (FM re-rates each pin of a touched net with three candidates, about 3 M
  // calls on wiki-vote k = 8: the call and the rowless path's set-up were a third of it).
  MoveCandidate best_of(const PartitionedHypergraph& phg, NodeID u,
                        std::span<const BlockID> candidates,
                        std::span<const Weight> max_weights) const {
    if (!has_row(u))
      return counted_best_of(phg, u, candidates, max_weights);
    const RowOf r = row_of(u);
    const RowClass& c = classes_[r.width];
    std::uint8_t* row = c.base + r.row * c.row_bytes;
    const BlockID from = phg.block(u);
    const Weight base = base_[u];
    BestMove best;
    for (const BlockID t : candidates) {
      if (t >= k_ || t == from || t == best.move.to)
        continue;
      const std::size_t bit = static_cast<std::size_t>(t) * c.bits;
      const Weight ct = load({row + bit / 8, static_cast<unsigned>(bit % 8), c.mask});
      if (ct == 0 || !phg.fits(u, t, max_weights))
        continue;
      best.offer(t, base + ct, phg.block_weight(t));
    }
    return best.move;
  }

  // Moves u to `to` in phg, keeps the cache exact, and appends to `touched` the pins of updated
  // nets with at most max_touch_size pins (they may need re-rating). Returns the km1 decrease.
  Weight move(PartitionedHypergraph& phg, NodeID u, BlockID to, NodeID max_touch_size,
              std::vector<NetID>& touched_nets);

  // Work counted since construction (release() keeps it): pins updated by move() plus what
  // callers add (pins they re-rate). Deterministic, a measure of refinement time.
  std::uint64_t work() const { return work_; }
  void add_work(std::uint64_t pins) { work_ += pins; }
  // Sets the count back (moves that are not refinement work: the rebalancer's).
  void reset_work(std::uint64_t work) { work_ = work; }

private:
  // Rows of one entry type; the capacity (in entries) is kept between rebuilds.
  template <typename T> struct Rows {
    std::unique_ptr<T[]> data;
    std::size_t capacity = 0;
    T* reserve(std::size_t entries);
  };
  // A row of entries of type T.
  template <typename T> struct PlainRow {
    T* p;
    std::int32_t get(BlockID b) const { return static_cast<std::int32_t>(p[b]); }
    void add(BlockID b, std::int32_t w) const { p[b] = static_cast<T>(p[b] + w); }
    void clear(BlockID k) const { std::fill_n(p, k, T{0}); }
    // f(b, entry b) for b = 0 to k - 1.
    template <typename F> void for_each(BlockID k, F&& f) const {
      for (BlockID b = 0; b < k; ++b)
        f(b, get(b));
    }
    // The same for the nonzero entries, 8 bytes of entries at a time.
    template <typename F> void for_each_nonzero(BlockID k, F&& f) const {
      constexpr BlockID kPerWord = 8 / sizeof(T);
      BlockID b = 0;
      for (; b + kPerWord <= k; b += kPerWord) {
        std::uint64_t word;
        std::memcpy(&word, p + b, sizeof word);
        if (word != 0)
          for (BlockID i = b; i < b + kPerWord; ++i)
            if (p[i] != 0)
              f(i, get(i));
      }
      for (; b < k; ++b)
        if (p[b] != 0)
          f(b, get(b));
    }
    // Entries 0 to k - 1 as bytes (rows of 8-bit entries only; see best_move).
    void spread(std::uint8_t* bytes, BlockID k) const requires(sizeof(T) == 1) {
      std::memcpy(bytes, p, k);
    }
    // The largest entry among blocks other than `skip`, in loops the compiler vectorises.
    std::int32_t max_except(BlockID k, BlockID skip) const {
      T top = 0;
      for (BlockID b = 0; b < skip; ++b)
        top = std::max(top, p[b]);
      for (BlockID b = skip + 1; b < k; ++b)
        top = std::max(top, p[b]);
      return static_cast<std::int32_t>(top);
    }
  };
  // A row of W-bit entries (W < 8 and not 4), packed: block b at bits [b W, b W + W) of the row
  // (little-endian), so an entry lies in one or two bytes, and blocks 8 i to 8 i + 7 in the W
  // bytes from byte W i. Reads take the 32-bit word from the entry's first byte, loops the
  // 64-bit word from each 8 entries' first byte (the rows' slack covers both past the last
  // entry). The parallel build counts a row in bytes and packs it: pack() writes the row's own
  // bytes only.
  template <unsigned W> struct PackedRow {
    static_assert(W < 8);
    static constexpr std::uint32_t kMask = (std::uint32_t{1} << W) - 1;
    static constexpr std::uint64_t kGroupMask = (std::uint64_t{1} << (8 * W)) - 1;
    std::uint8_t* p;
    std::int32_t get(BlockID b) const {
      const std::size_t bit = std::size_t{b} * W;
      std::uint32_t word;
      std::memcpy(&word, p + bit / 8, sizeof word);
      return static_cast<std::int32_t>((word >> (bit % 8)) & kMask);
    }
    // The row of entries values[0, k) (each below 2^W); 8 zero values (most, at large k) are
    // tested at once.
    void pack(const std::uint8_t* values, BlockID k) const {
      const auto group = [](std::uint64_t bytes) {
        std::uint64_t word = 0;
        for (BlockID i = 0; bytes != 0; ++i, bytes >>= 8)
          word |= (bytes & 255) << (i * W);
        return word;
      };
      std::uint8_t* q = p;
      BlockID b = 0;
      for (; b + 8 <= k; b += 8, q += W) {
        std::uint64_t bytes;
        std::memcpy(&bytes, values + b, sizeof bytes);
        const std::uint64_t word = group(bytes);
        std::memcpy(q, &word, W); // the low bytes
      }
      if (b < k) { // the last k % 8 entries, in the row's last bytes
        std::uint64_t bytes = 0;
        std::memcpy(&bytes, values + b, k - b);
        const std::uint64_t word = group(bytes);
        std::memcpy(q, &word, ((k - b) * W + 7) / 8);
      }
    }
    template <typename F> void for_each(BlockID k, F&& f) const {
      const std::uint8_t* q = p;
      BlockID b = 0;
      for (; b + 8 <= k; b += 8, q += W) {
        std::uint64_t word;
        std::memcpy(&word, q, sizeof word);
        for (BlockID i = b; i < b + 8; ++i, word >>= W)
          f(i, static_cast<std::int32_t>(word & kMask));
      }
      for (; b < k; ++b)
        f(b, get(b));
    }
    template <typename F> void for_each_nonzero(BlockID k, F&& f) const {
      const std::uint8_t* q = p;
      BlockID b = 0;
      for (; b + 8 <= k; b += 8, q += W) {
        std::uint64_t word;
        std::memcpy(&word, q, sizeof word);
        word &= kGroupMask;
        for (BlockID i = b; word != 0; ++i, word >>= W)
          if ((word & kMask) != 0)
            f(i, static_cast<std::int32_t>(word & kMask));
      }
      for (; b < k; ++b)
        if (const std::int32_t c = get(b); c != 0)
          f(b, c);
    }
    // Entries 0 to k - 1 as bytes, a group of 8 at a time (by one pdep where the build targets
    // BMI2); bytes[k] to the end of the last group are left undefined.
    void spread(std::uint8_t* bytes, BlockID k) const {
      const std::uint8_t* q = p;
      for (BlockID b = 0; b < k; b += 8, q += W) { // a last group may read the slack
        std::uint64_t word;
        std::memcpy(&word, q, sizeof word);
#if defined(__BMI2__)
        const std::uint64_t spread = _pdep_u64(word, 0x0101010101010101ULL * kMask);
#else
        std::uint64_t spread = 0;
        for (unsigned i = 0; i < 8; ++i)
          spread |= (word >> (i * W) & kMask) << (8 * i);
#endif
        std::memcpy(bytes + b, &spread, sizeof spread);
      }
    }
    std::int32_t max_except(BlockID k, BlockID skip) const {
#if defined(__BMI2__)
      // Each group spread into 8 bytes by one pdep, then the byte rows' vectorised maximum.
      if (k <= kMaxSpread) {
        constexpr std::uint64_t kLowBits = 0x0101010101010101ULL * kMask;
        std::uint8_t bytes[kMaxSpread];
        const std::uint8_t* q = p;
        for (BlockID b = 0; b < k; b += 8, q += W) { // a last group may read the slack
          std::uint64_t word;
          std::memcpy(&word, q, sizeof word);
          const std::uint64_t spread = _pdep_u64(word, kLowBits);
          std::memcpy(bytes + b, &spread, sizeof spread);
        }
        return PlainRow<std::uint8_t>{bytes}.max_except(k, skip);
      }
#endif
      std::int32_t top = 0;
      for_each_nonzero(k, [&](BlockID b, std::int32_t c) {
        if (b != skip)
          top = std::max(top, c);
      });
      return top;
    }
    static constexpr BlockID kMaxSpread = 1024;
  };
  // A row of 4-bit entries, two per byte: block b in byte b / 2, the high half if b is odd.
  struct NibbleRow {
    std::uint8_t* p;
    std::int32_t get(BlockID b) const { return (p[b / 2] >> (b % 2 * 4)) & 15; }
    void add(BlockID b, std::int32_t w) const {
      const unsigned shift = b % 2 * 4;
      const auto value = static_cast<unsigned>(get(b) + w);
      p[b / 2] = static_cast<std::uint8_t>((p[b / 2] & ~(15u << shift)) | (value << shift));
    }
    void clear(BlockID k) const { std::fill_n(p, (k + 1) / 2, std::uint8_t{0}); }
    // Entries 0 to k - 1 as bytes (bytes[k] too when k is odd: the unused half, 0).
    void spread(std::uint8_t* bytes, BlockID k) const {
      for (BlockID i = 0; i < (k + 1) / 2; ++i) {
        bytes[2 * i] = p[i] & 15;
        bytes[2 * i + 1] = p[i] >> 4;
      }
    }
    template <typename F> void for_each(BlockID k, F&& f) const {
      for (BlockID b = 0; b < k; ++b)
        f(b, get(b));
    }
    template <typename F> void for_each_nonzero(BlockID k, F&& f) const {
      BlockID b = 0;
      for (; b + 16 <= k; b += 16) {
        std::uint64_t word;
        std::memcpy(&word, p + b / 2, sizeof word);
        for (BlockID i = b; word != 0; ++i, word >>= 4)
          if ((word & 15) != 0)
            f(i, static_cast<std::int32_t>(word & 15));
      }
      for (; b < k; ++b)
        if (const std::int32_t c = get(b); c != 0)
          f(b, c);
    }
    // The same for nibbles: both halves of every byte but skip's, then the other half of that
    // one (the unused high half of an odd k's last byte is 0).
    std::int32_t max_except(BlockID k, BlockID skip) const {
      std::uint8_t top = 0;
      const BlockID skipped = skip / 2, bytes = (k + 1) / 2;
      for (BlockID i = 0; i < skipped; ++i)
        top = std::max(
            {top, static_cast<std::uint8_t>(p[i] & 15), static_cast<std::uint8_t>(p[i] >> 4)});
      for (BlockID i = skipped + 1; i < bytes; ++i)
        top = std::max(
            {top, static_cast<std::uint8_t>(p[i] & 15), static_cast<std::uint8_t>(p[i] >> 4)});
      return std::max(std::int32_t{top}, (skip ^ 1) < k ? get(skip ^ 1) : 0);
    }
  };
  // Width classes 0-7: entries of 3, 4, 5, 6, 7, 8, 16 or 32 bits; a vertex takes the narrowest
  // that holds incident(u).
  static constexpr int kClasses = 8;
  static constexpr unsigned kClassBits[kClasses] = {3, 4, 5, 6, 7, 8, 16, 32};
  static int width_class(std::int32_t incident) {
    const int bits = std::bit_width(static_cast<std::uint32_t>(incident));
    return bits <= 3 ? 0 : bits <= 8 ? bits - 3 : bits <= 16 ? 6 : 7;
  }
  std::size_t row_bytes(int c) const {
    return (std::size_t{k_} * kClassBits[c] + 7) / 8;
  }

  // Per vertex: its row number among the rows of its width class, times 8, plus the class; apart
  // from base_, so that the pin updates of move() (billions on a web graph: hub nets are
  // updated whole whenever a block gains or loses their last pin) read 4 dense bytes per pin.
  struct RowOf {
    int width;
    std::size_t row;
  };
  static constexpr NodeID kMaxNodes = NodeID{1} << 29;
  // Rows for vertices with at least k / kRowDivisor nets: a 4-bit row costs k / 2 bytes, a
  // counted conn(u, t) one bit test per net, a counted best move the union of the nets' sets.
  // Each net's set is a cache miss of its own, and a vertex is re-rated about as often as it has
  // nets, so counting costs grow with the square of the degree. dblp-2010 k = 128 (seed 0, 2
  // threads, CPU time against rows for all): 1/8 (rows from 16 nets) 1.20x, 1/16 1.01x
  // (medians of 3).
  static constexpr BlockID kRowDivisor = 16;
  // Counting only while a union of sets fits on the stack (k <= 4096).
  static constexpr std::size_t kMaxCountedWords = 64;
  RowOf row_of(NodeID v) const {
    return {static_cast<int>(row_[v] & 7), row_[v] >> 3};
  }

  // Where the rows of one width class lie: `row_bytes` bytes per row from `base`, entry b at
  // bit b * bits of its row (little-endian: byte b / 2, the high half if b is odd, for 4-bit
  // entries, as NibbleRow; as PackedRow for 3, 5, 6 and 7).
  struct RowClass {
    std::uint8_t* base = nullptr;
    std::size_t row_bytes = 0;
    unsigned bits = 0;
    std::uint32_t mask = 0;
  };
  // One entry, reached through the 32-bit word that starts at its first byte: every width is
  // read and updated the same way, without a branch on the width (the pins of one net have rows
  // of all four widths mixed).
  struct Slot {
    std::uint8_t* p;
    unsigned shift;
    std::uint32_t mask;
  };
  static_assert(std::endian::native == std::endian::little, "Slot assumes little-endian words");
  // A 32-bit word may reach 3 bytes past a row's last entry, the 64-bit word of a packed row's
  // last (perhaps partial) group of 8 entries 7: every row array has that many more.
  static constexpr std::size_t kSlack = 7;
  Slot slot(NodeID v, BlockID b) const {
    const RowOf r = row_of(v);
    const RowClass& c = classes_[r.width];
    const std::size_t bit = static_cast<std::size_t>(b) * c.bits;
    return {c.base + r.row * c.row_bytes + bit / 8, static_cast<unsigned>(bit % 8), c.mask};
  }
  static std::int32_t load(Slot s) {
    std::uint32_t word;
    std::memcpy(&word, s.p, sizeof word);
    return static_cast<std::int32_t>((word >> s.shift) & s.mask);
  }
  // conn stays within [0, incident], below the entry's limit, so adding w at the entry's bit
  // (w < 0: modulo 2^32) neither carries nor borrows into the bits next to it.
  static void add(Slot s, std::int32_t w) {
    std::uint32_t word;
    std::memcpy(&word, s.p, sizeof word);
    word += static_cast<std::uint32_t>(w) << s.shift;
    std::memcpy(s.p, &word, sizeof word);
  }
  // conn(u, t) of a vertex without a row, from its nets' connectivity sets.
  Weight counted_conn(NodeID u, BlockID t) const {
    const Hypergraph& hg = phg_->hypergraph();
    Weight c = 0;
    for (NetID e : hg.incident_nets(u))
      if (phg_->in_connectivity_set(e, t)) // counted only where the sets exist
        c += hg.net_weight(e);
    return c;
  }
  // f(t, conn(u, t)) for the blocks t that some net of u touches, in increasing order. One pass
  // over u's nets adds w(e) to each block of e's set, so each set is read once: testing every
  // block of the union against every net read each set |union| times (ca-astroph k = 128: the
  // rowless best moves were a quarter of the run's instructions). conn(u, t) stays below 2^31
  // (rebuild() refuses larger incident weights), so the sums take 4 bytes; a block's sum is
  // defined from its first net on, told by its bit in `seen`, so neither array is cleared
  // whole (at most 16 KiB on the stack, kMaxCountedWords words). Not inlined, so that its
  // callers' row paths do not set up (and probe) that frame on every call. A net without a set
  // (under 8 pins) gives its pairs' blocks one by one.
  template <typename F> [[gnu::noinline]] void for_each_counted(NodeID u, F&& f) const {
    const Hypergraph& hg = phg_->hypergraph();
    const std::size_t words = phg_->conn_words();
    std::uint64_t seen[kMaxCountedWords];
    std::int32_t sum[kMaxCountedWords * 64];
    std::fill_n(seen, words, std::uint64_t{0});
    for (NetID e : hg.incident_nets(u)) {
      const auto w = static_cast<std::int32_t>(hg.net_weight(e));
      const std::uint64_t* set = phg_->connectivity_set(e);
      if (set == nullptr) {
        phg_->for_each_block_unordered(e, [&](BlockID t) {
          const std::uint64_t bit = std::uint64_t{1} << (t % 64);
          if ((seen[t / 64] & bit) != 0) {
            sum[t] += w;
          } else {
            sum[t] = w;
            seen[t / 64] |= bit;
          }
        });
        continue;
      }
      for (std::size_t i = 0; i < words; ++i) {
        std::int32_t* word_sum = sum + i * 64;
        for (std::uint64_t bits = set[i] & seen[i]; bits != 0; bits &= bits - 1)
          word_sum[std::countr_zero(bits)] += w;
        for (std::uint64_t bits = set[i] & ~seen[i]; bits != 0; bits &= bits - 1)
          word_sum[std::countr_zero(bits)] = w;
        seen[i] |= set[i];
      }
    }
    for (std::size_t i = 0; i < words; ++i)
      for (std::uint64_t bits = seen[i]; bits != 0; bits &= bits - 1) {
        const int b = std::countr_zero(bits);
        f(static_cast<BlockID>(i * 64 + b), Weight{sum[i * 64 + b]});
      }
  }
  // conn(v, b) += w for every pin v of a net.
  void add_to_pins(std::span<const NodeID> pins, BlockID b, std::int32_t w);

  // base(u) of every vertex, and its width class in row_[u] until compute_connections replaces
  // it; returns the largest incident(u).
  Weight compute_weights(const PartitionedHypergraph& phg);
  // Rows of every vertex (of the classes compute_weights left in row_).
  void compute_connections(const PartitionedHypergraph& phg);
  // f(v's row as a PackedRow<W>, NibbleRow or PlainRow<T>): per vertex, where a loop over its
  // row follows (building it, best_move), so the width is branched on once per row, not per
  // entry. The parallel build writes through these: they touch only the row's own bytes.
  template <typename F> decltype(auto) with_row(NodeID v, F&& f) const {
    const RowOf r = row_of(v);
    const RowClass& c = classes_[r.width];
    std::uint8_t* row = c.base + r.row * c.row_bytes;
    switch (r.width) {
    case 0:
      return f(PackedRow<3>{row});
    case 1:
      return f(NibbleRow{row});
    case 2:
      return f(PackedRow<5>{row});
    case 3:
      return f(PackedRow<6>{row});
    case 4:
      return f(PackedRow<7>{row});
    case 5:
      return f(PlainRow<std::uint8_t>{row});
    case 6:
      return f(PlainRow<std::uint16_t>{reinterpret_cast<std::uint16_t*>(row)});
    default:
      return f(PlainRow<std::int32_t>{reinterpret_cast<std::int32_t*>(row)});
    }
  }
  // The best feasible target among blocks offered in increasing order with their conn(u, t).
  class BestTarget;
  // best_move of a vertex with a row of at most 8-bit entries, its entries spread into `bytes`
  // (overwritten), up to k = kMaxSpreadBlocks: its loops run over all k entries, where the
  // row's own loop skips 8 zero entries at a time, and at large k most of a row is zero
  // (pubmed k = 128: 1.0501x the instructions with it, wiki-vote k = 32 0.9114x).
  static constexpr BlockID kMaxSpreadBlocks = 64;
  MoveCandidate best_of_bytes(const PartitionedHypergraph& phg, NodeID u, std::uint8_t* bytes,
                              std::span<const Weight> max_weights) const;
  // best_move of a vertex without a row. Apart (not inlined), so that best_move's BestTarget
  // does not escape into for_each_counted's call on the row path (pubmed k = 32, 155,570 calls:
  // the row path took 2.7 M instructions more than main's while it escaped, 1.5 M apart).
  [[gnu::noinline]] MoveCandidate counted_best_move(const PartitionedHypergraph& phg, NodeID u,
                                                    std::span<const Weight> max_weights) const;
  // best_of of a vertex without a row.
  MoveCandidate counted_best_of(const PartitionedHypergraph& phg, NodeID u,
                                std::span<const BlockID> candidates,
                                std::span<const Weight> max_weights) const;

  BlockID k_ = 0;
  const PartitionedHypergraph* phg_ = nullptr; // whose connectivity sets the counting reads
  std::uint32_t rowless_ = 0; // row_ of the vertices without a row: the sink row of class 0
  std::vector<std::int32_t> base_; // benefit(u) - incident(u)
  std::vector<std::uint32_t> row_;
  Rows<std::uint8_t> byte_rows_[6]; // classes 0-5: entries of 3 to 8 bits
  Rows<std::uint16_t> rows16_;
  Rows<std::int32_t> rows32_;
  RowClass classes_[kClasses];
  std::uint64_t work_ = 0;
  bool built_ = false; // see built_for
  // phg_'s state when last built or moved through move().
  PartitionedHypergraph::State state_;
};

} // namespace gnnpart::hg
