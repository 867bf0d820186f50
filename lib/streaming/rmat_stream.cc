#include "streaming/rmat_stream.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/errors.h"
#include "core/parallel.h"
#include "streaming/external_sort.h"
#include "streaming/generated_writer.h"
#include "streaming/rmat_draw.h"
#include "streaming/temp_file.h"

namespace gnnpart::streaming {
namespace {

constexpr std::size_t kMaxBufferKeys = std::size_t{1} << 15; // 256 KiB of keys per bucket
constexpr std::size_t kMinBufferKeys = 512;                  // 4 KiB: one write per 512 draws
constexpr std::uint64_t kSampleEdges = std::uint64_t{1} << 20;
constexpr std::uint64_t kGroupChunks = 16; // chunks drawn at once: 32 MiB of keys
constexpr std::uint32_t kMaxBuckets = 4096;
constexpr std::uint64_t kMinBucketKeys = 1024;

// The edge's key in the output's id space (relabelled when a permutation is given).
std::uint64_t output_key(std::uint64_t edge, const std::vector<NodeID>& permutation) {
  if (permutation.empty())
    return edge;
  const NodeID u = permutation[edge >> 32], v = permutation[edge & 0xffffffffULL];
  return (static_cast<std::uint64_t>(std::min(u, v)) << 32) | std::max(u, v);
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

FilePtr open_file(const std::string& path, const char* mode) {
  FilePtr file(std::fopen(path.c_str(), mode));
  if (!file)
    throw SystemError(path + ": cannot open temporary file: " + std::strerror(errno));
  return file;
}

void write_keys(const std::string& path, const char* mode, const std::uint64_t* keys,
                std::size_t count) {
  FilePtr file = open_file(path, mode);
  if (count > 0 && std::fwrite(keys, sizeof(std::uint64_t), count, file.get()) != count)
    throw SystemError(path + ": cannot write temporary file: " + std::strerror(errno));
  if (std::fclose(file.release()) != 0)
    throw SystemError(path + ": cannot write temporary file: " + std::strerror(errno));
}

void read_keys(const std::string& path, std::uint64_t offset, std::uint64_t* keys,
               std::size_t count) {
  FilePtr file = open_file(path, "rb");
  if (std::fseek(file.get(), static_cast<long>(offset * sizeof(std::uint64_t)), SEEK_SET) != 0 ||
      std::fread(keys, sizeof(std::uint64_t), count, file.get()) != count)
    throw SystemError(path + ": cannot read temporary file");
}

// One key range [lower, upper bound) of the edges: a file that starts with the range's distinct
// edges so far, sorted (`sorted` keys), followed by the `tail` keys drawn since.
struct Bucket {
  TempFile file;
  std::uint64_t sorted = 0;
  std::uint64_t tail = 0;
  std::vector<std::uint64_t> buffer;
};

class BucketSet {
public:
  BucketSet(std::vector<std::uint64_t> bounds, std::size_t buffer_keys, const std::string& temp_dir)
      : bounds_(std::move(bounds)), buffer_keys_(buffer_keys) {
    buckets_.reserve(bounds_.size() + 1);
    for (std::size_t b = 0; b <= bounds_.size(); ++b)
      buckets_.push_back(Bucket{TempFile(temp_dir, "rmat-bucket"), 0, 0, {}});
  }

  std::size_t size() const { return buckets_.size(); }

  void add(std::uint64_t key) {
    const std::size_t b = static_cast<std::size_t>(
        std::upper_bound(bounds_.begin(), bounds_.end(), key) - bounds_.begin());
    Bucket& bucket = buckets_[b];
    if (bucket.buffer.capacity() == 0)
      bucket.buffer.reserve(buffer_keys_);
    bucket.buffer.push_back(key);
    if (bucket.buffer.size() == buffer_keys_)
      flush(bucket);
  }

  // Flushes the buffers and makes every bucket sorted and duplicate-free (in parallel, one
  // bucket per task); returns the number of distinct edges.
  std::uint64_t deduplicate() {
    for (Bucket& bucket : buckets_) {
      flush(bucket);
      std::vector<std::uint64_t>().swap(bucket.buffer);
    }
    tbb::parallel_for(std::size_t{0}, buckets_.size(), std::size_t{1},
                      [&](std::size_t b) { deduplicate(buckets_[b]); });
    std::uint64_t distinct = 0;
    for (const Bucket& bucket : buckets_)
      distinct += bucket.sorted;
    return distinct;
  }

  // The sorted keys of bucket b (after deduplicate).
  std::vector<std::uint64_t> load(std::size_t b) const {
    std::vector<std::uint64_t> keys(buckets_[b].sorted);
    read_keys(buckets_[b].file.path(), 0, keys.data(), keys.size());
    return keys;
  }

private:
  static void flush(Bucket& bucket) {
    if (bucket.buffer.empty())
      return;
    write_keys(bucket.file.path(), "ab", bucket.buffer.data(), bucket.buffer.size());
    bucket.tail += bucket.buffer.size();
    bucket.buffer.clear();
  }

  // Sorts the tail, merges it into the sorted part without duplicates and rewrites the file.
  static void deduplicate(Bucket& bucket) {
    if (bucket.tail == 0)
      return;
    std::vector<std::uint64_t> tail(bucket.tail), scratch;
    read_keys(bucket.file.path(), bucket.sorted, tail.data(), tail.size());
    radix_sort(tail, scratch);
    std::vector<std::uint64_t> sorted(bucket.sorted);
    read_keys(bucket.file.path(), 0, sorted.data(), sorted.size());
    scratch.resize(sorted.size() + tail.size());
    const auto end =
        std::merge(sorted.begin(), sorted.end(), tail.begin(), tail.end(), scratch.begin());
    const auto last = std::unique(scratch.begin(), end);
    bucket.sorted = static_cast<std::uint64_t>(last - scratch.begin());
    bucket.tail = 0;
    write_keys(bucket.file.path(), "wb", scratch.data(), bucket.sorted);
  }

  std::vector<std::uint64_t> bounds_;
  std::size_t buffer_keys_;
  std::vector<Bucket> buckets_;
};

// Draws `count` edges of `round` from its first chunks (the in-memory generator's draws) and
// hands each chunk's keys to sink in chunk order; the chunks of a group are drawn in parallel.
template <typename Sink>
void draw_round(const GeneratorOptions& options, const RmatParams& params, std::uint64_t round,
                std::uint64_t count, const std::vector<NodeID>& permutation, Sink&& sink) {
  const std::uint64_t chunks = (count + kRmatChunkEdges - 1) / kRmatChunkEdges;
  std::vector<std::vector<std::uint64_t>> keys(std::min(chunks, kGroupChunks));
  for (std::uint64_t first = 0; first < chunks; first += kGroupChunks) {
    const std::uint64_t group = std::min(kGroupChunks, chunks - first);
    tbb::parallel_for(std::uint64_t{0}, group, [&](std::uint64_t g) {
      const std::uint64_t chunk = first + g;
      Rng rng(derive_seed(options.seed, round, chunk));
      const std::uint64_t begin = chunk * kRmatChunkEdges;
      const std::uint64_t end = std::min(count, begin + kRmatChunkEdges);
      keys[g].resize(end - begin);
      for (std::uint64_t i = 0; i < end - begin; ++i)
        keys[g][i] = output_key(draw_rmat_edge(rng, params), permutation);
    });
    for (std::uint64_t g = 0; g < group; ++g)
      sink(keys[g]);
  }
}

// Bucket bounds: quantiles of the first draws' keys, so that the buckets hold about equal
// shares of the edges (the lower ids hold more: a key's first id is the smaller endpoint).
std::vector<std::uint64_t> bucket_bounds(const GeneratorOptions& options, const RmatParams& params,
                                         const std::vector<NodeID>& permutation,
                                         std::uint32_t buckets) {
  std::vector<std::uint64_t> sample;
  draw_round(options, params, 0, std::min<std::uint64_t>(options.m, kSampleEdges), permutation,
             [&](const std::vector<std::uint64_t>& keys) {
               sample.insert(sample.end(), keys.begin(), keys.end());
             });
  std::sort(sample.begin(), sample.end());
  std::vector<std::uint64_t> bounds;
  for (std::uint32_t b = 1; b < buckets; ++b)
    bounds.push_back(sample[sample.size() * b / buckets]);
  return bounds;
}

} // namespace

bool can_stream_generation(const GeneratorOptions& options) {
  return options.kind == GeneratorKind::kRmat && options.hub_degree == 0 && !options.shuffle;
}

StreamedGeneration generate_to_file(const GeneratorOptions& options, const std::string& path,
                                    GeneratedFormat format,
                                    const std::vector<std::string>& comments,
                                    std::size_t memory_bytes, const std::string& temp_dir) {
  if (!can_stream_generation(options))
    throw InvalidParameter("generate: only R-MAT without --hub-degree and --shuffle streams");
  const RmatParams params = make_rmat_params(options);
  StreamedGeneration result;
  run_with_threads(options.threads, [&] {
    const std::vector<NodeID> permutation =
        options.relabel ? random_permutation(options.n, options.seed) : std::vector<NodeID>();
    // Each thread sorts one bucket at a time: keys, tail and merge scratch, 16 B per key.
    const std::uint64_t threads = static_cast<std::uint64_t>(resolve_threads(options.threads));
    const std::uint64_t bucket_keys = std::max<std::uint64_t>(
        kMinBucketKeys, memory_bytes / (2 * sizeof(std::uint64_t)) / threads);
    const std::uint64_t wanted = (options.m + options.m / 4 + bucket_keys - 1) / bucket_keys;
    if (wanted > kMaxBuckets) {
      // More buckets would mean more open scratch files than a process may hold; fewer would
      // sort more keys at once than the limit allows.
      const std::uint64_t keys = (options.m + options.m / 4 + kMaxBuckets - 1) / kMaxBuckets;
      const std::uint64_t needed =
          std::max(keys, kMinBucketKeys) * 2 * sizeof(std::uint64_t) * threads;
      throw InvalidParameter("generate: a memory limit of " + std::to_string(memory_bytes >> 20) +
                             " MiB is too small for " + std::to_string(options.m) + " edges on " +
                             std::to_string(threads) + " threads; R-MAT needs at least " +
                             std::to_string((needed + (1 << 20) - 1) >> 20) + " MiB");
    }
    result.buckets = static_cast<std::uint32_t>(std::max<std::uint64_t>(wanted, 1));
    // The buckets' write buffers share the limit too (they are freed before the sorting).
    const std::size_t buffer_keys = std::clamp<std::size_t>(
        memory_bytes / sizeof(std::uint64_t) / result.buckets, kMinBufferKeys, kMaxBufferKeys);
    BucketSet buckets(bucket_bounds(options, params, permutation, result.buckets), buffer_keys,
                      temp_dir);
    std::uint64_t distinct = 0;
    for (std::uint64_t round = 0; distinct < options.m; ++round) {
      if (round == kRmatMaxRounds)
        throw InvalidParameter("rmat: could not reach m distinct edges");
      const std::uint64_t missing = options.m - distinct;
      draw_round(options, params, round, missing, permutation,
                 [&](const std::vector<std::uint64_t>& keys) {
                   for (const std::uint64_t key : keys)
                     buckets.add(key);
                 });
      result.draws += missing;
      distinct = buckets.deduplicate();
      result.rounds = static_cast<std::uint32_t>(round + 1);
    }
    GeneratedWriter writer(path, format, options.n, options.m, comments, memory_bytes, temp_dir);
    for (std::size_t b = 0; b < buckets.size(); ++b)
      writer.add(buckets.load(b));
    writer.finish();
  });
  result.m = options.m;
  return result;
}

} // namespace gnnpart::streaming
