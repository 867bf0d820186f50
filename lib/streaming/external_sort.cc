#include "streaming/external_sort.h"

#include <algorithm>
#include <array>
#include <memory>
#include <queue>

#include "core/errors.h"
#include "streaming/adjacency_writer.h"
#include "streaming/file_source.h"
#include "streaming/progress.h"

namespace gnnpart::streaming {
namespace {

constexpr std::size_t kMinCapacity = 1 << 12;
constexpr std::size_t kMinRunBufferKeys = 1 << 13;

// Sequential reader of a sorted run of raw 64-bit keys.
class RunReader {
public:
  RunReader(const std::string& path, std::size_t buffer_keys) : source_(path) {
    buffer_.resize(std::max(buffer_keys, kMinRunBufferKeys));
    fill();
  }
  bool empty() const { return pos_ == end_; }
  std::uint64_t front() const { return buffer_[pos_]; }
  void pop() {
    if (++pos_ == end_)
      fill();
  }

private:
  void fill() {
    const std::size_t got = source_.read(reinterpret_cast<char*>(buffer_.data()),
                                         buffer_.size() * sizeof(std::uint64_t));
    if (got % sizeof(std::uint64_t) != 0)
      throw SystemError(source_.path() + ": truncated run");
    pos_ = 0;
    end_ = got / sizeof(std::uint64_t);
  }
  FileSource source_;
  std::vector<std::uint64_t> buffer_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
};

// Emits one adjacency record per source vertex from a sorted, deduplicated key sequence.
class KeyToAdjacency {
public:
  explicit KeyToAdjacency(AdjacencyWriter& writer) : writer_(writer) {}
  void push(std::uint64_t key) {
    const NodeID u = static_cast<NodeID>(key >> 32);
    if (u != current_ && !neighbors_.empty())
      flush();
    current_ = u;
    neighbors_.push_back(static_cast<NodeID>(key & 0xffffffffULL));
  }
  void flush() {
    if (!neighbors_.empty())
      writer_.add(current_, neighbors_);
    neighbors_.clear();
  }

private:
  AdjacencyWriter& writer_;
  NodeID current_ = 0;
  std::vector<NodeID> neighbors_;
};

} // namespace

void radix_sort(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& scratch) {
  const std::size_t size = keys.size();
  if (size < 64) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  scratch.resize(size);
  std::vector<std::array<std::size_t, 256>> counts(8);
  for (auto& c : counts)
    c.fill(0);
  for (const std::uint64_t key : keys) {
    for (int b = 0; b < 8; ++b)
      ++counts[b][(key >> (8 * b)) & 0xff];
  }
  std::uint64_t* from = keys.data();
  std::uint64_t* to = scratch.data();
  for (int b = 0; b < 8; ++b) {
    auto& count = counts[b];
    if (count[(from[0] >> (8 * b)) & 0xff] == size)
      continue; // all equal in this byte
    std::size_t sum = 0;
    for (auto& c : count) {
      const std::size_t here = c;
      c = sum;
      sum += here;
    }
    const int shift = 8 * b;
    for (std::size_t i = 0; i < size; ++i) {
      const std::uint64_t key = from[i];
      to[count[(key >> shift) & 0xff]++] = key;
    }
    std::swap(from, to);
  }
  if (from != keys.data())
    std::copy(from, from + size, keys.data());
}

AdjacencySorter::AdjacencySorter(const ExternalSortOptions& options) : options_(options) {
  // Keys and radix scratch share the memory budget.
  capacity_ = std::max(kMinCapacity, options_.memory_bytes / (2 * sizeof(std::uint64_t)));
  capacity_ &= ~std::size_t{1};
  keys_.reserve(capacity_);
}

AdjacencySorter::~AdjacencySorter() = default;

void AdjacencySorter::sort_buffer() {
  radix_sort(keys_, scratch_);
  const auto last = std::unique(keys_.begin(), keys_.end());
  stats_.duplicate_entries += static_cast<std::uint64_t>(keys_.end() - last);
  keys_.erase(last, keys_.end());
}

void AdjacencySorter::spill() {
  sort_buffer();
  runs_.emplace_back(options_.temp_dir, "run");
  io::OutputFile out(runs_.back().path(), false);
  out.write(keys_.data(), keys_.size() * sizeof(std::uint64_t));
  out.commit();
  run_keys_ += keys_.size();
  keys_.clear();
}

ExternalSortStats AdjacencySorter::finish(const std::string& path, NodeID n,
                                          ProgressMeter* progress) {
  AdjacencyWriter writer(path);
  KeyToAdjacency emit(writer);
  std::uint64_t written = 0;
  if (runs_.empty()) {
    sort_buffer();
    for (const std::uint64_t key : keys_)
      emit.push(key);
    written = keys_.size();
  } else {
    if (!keys_.empty())
      spill();
    std::vector<std::uint64_t>().swap(keys_);
    std::vector<std::uint64_t>().swap(scratch_);
    const std::size_t per_run = options_.memory_bytes / sizeof(std::uint64_t) / (runs_.size() + 1);
    std::vector<std::unique_ptr<RunReader>> readers;
    readers.reserve(runs_.size());
    for (const TempFile& run : runs_)
      readers.push_back(std::make_unique<RunReader>(run.path(), per_run));
    using Item = std::pair<std::uint64_t, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    for (std::uint32_t r = 0; r < readers.size(); ++r) {
      if (!readers[r]->empty())
        heap.push({readers[r]->front(), r});
    }
    bool have_last = false;
    std::uint64_t last = 0;
    std::uint64_t merged = 0;
    if (progress != nullptr)
      progress->begin("merge", run_keys_ / 2, false);
    while (!heap.empty()) {
      if (progress != nullptr && (++merged & 0xffff) == 0)
        progress->update(merged / 2, merged / 2);
      const auto [key, r] = heap.top();
      heap.pop();
      readers[r]->pop();
      if (!readers[r]->empty())
        heap.push({readers[r]->front(), r});
      if (have_last && key == last) {
        ++stats_.duplicate_entries;
        continue;
      }
      have_last = true;
      last = key;
      emit.push(key);
      ++written;
    }
    if (progress != nullptr)
      progress->end(merged / 2, merged / 2);
  }
  emit.flush();
  stats_.runs = static_cast<std::uint32_t>(runs_.size());
  stats_.n = writer.finish(n);
  stats_.m = written / 2;
  runs_.clear();
  return stats_;
}

ExternalSortStats sort_edge_stream(EdgeStream& edges, const std::string& path,
                                   const ExternalSortOptions& options, ProgressMeter* progress) {
  AdjacencySorter sorter(options);
  EdgeBatch batch;
  std::uint64_t done = 0;
  if (progress != nullptr) {
    progress->begin("sort", edges.progress_total(), edges.progress_in_bytes());
  }
  edges.begin_pass();
  while (edges.next_batch(batch)) {
    for (std::size_t i = 0; i < batch.size(); ++i)
      sorter.add(batch.sources[i], batch.targets[i]);
    done += batch.size();
    if (progress != nullptr)
      progress->update(edges.progress_done(), done);
  }
  edges.end_pass();
  if (progress != nullptr)
    progress->end(edges.progress_done(), done);
  return sorter.finish(path, edges.num_nodes(), progress);
}

} // namespace gnnpart::streaming
