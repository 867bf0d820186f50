#include "streaming/generated_writer.h"

#include <charconv>

#include "core/errors.h"
#include "streaming/binary_format.h"

namespace gnnpart::streaming {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

} // namespace

GeneratedWriter::GeneratedWriter(const std::string& path, GeneratedFormat format, NodeID n,
                                 EdgeID m, const std::vector<std::string>& comments,
                                 std::size_t memory_bytes, const std::string& temp_dir)
    : path_(path), format_(format), n_(n), m_(m) {
  if (format == GeneratedFormat::kAdjacency) {
    ExternalSortOptions sort_options;
    sort_options.memory_bytes = memory_bytes;
    sort_options.temp_dir = temp_dir;
    sorter_ = std::make_unique<AdjacencySorter>(sort_options);
    return;
  }
  if (format == GeneratedFormat::kBinary) {
    out_ = std::make_unique<io::OutputFile>(path, false);
    BinaryHeader header;
    header.kind = BinaryKind::kEdgeStream;
    header.n = n;
    header.m = m;
    header.entries = m;
    char bytes[kBinaryHeaderBytes];
    encode_header(header, bytes);
    out_->write(bytes, sizeof(bytes));
    ids_.reserve(kFlushBytes / sizeof(NodeID));
    return;
  }
  out_ = std::make_unique<io::OutputFile>(path, io::has_gz_suffix(path));
  for (const std::string& line : comments)
    text_ += "# " + line + "\n";
  text_ += "# vertices: " + std::to_string(n) + "\n# edges: " + std::to_string(m) + "\n";
  text_.reserve(kFlushBytes + 64);
}

GeneratedWriter::~GeneratedWriter() = default;

void GeneratedWriter::add(std::span<const std::uint64_t> keys) {
  added_ += keys.size();
  if (sorter_) {
    for (const std::uint64_t key : keys)
      sorter_->add(static_cast<NodeID>(key >> 32), static_cast<NodeID>(key & 0xffffffffULL));
    return;
  }
  if (format_ == GeneratedFormat::kBinary) {
    for (const std::uint64_t key : keys) {
      ids_.push_back(static_cast<NodeID>(key >> 32));
      ids_.push_back(static_cast<NodeID>(key & 0xffffffffULL));
      if (ids_.size() * sizeof(NodeID) >= kFlushBytes)
        flush();
    }
    return;
  }
  char digits[24];
  for (const std::uint64_t key : keys) {
    auto r = std::to_chars(digits, digits + sizeof(digits), key >> 32);
    text_.append(digits, r.ptr);
    text_.push_back(' ');
    r = std::to_chars(digits, digits + sizeof(digits), key & 0xffffffffULL);
    text_.append(digits, r.ptr);
    text_.push_back('\n');
    if (text_.size() >= kFlushBytes)
      flush();
  }
}

void GeneratedWriter::flush() {
  if (format_ == GeneratedFormat::kBinary) {
    out_->write(ids_.data(), ids_.size() * sizeof(NodeID));
    ids_.clear();
  } else {
    out_->write(text_);
    text_.clear();
  }
}

void GeneratedWriter::finish() {
  if (added_ != m_) {
    throw InvalidParameter("generate: wrote " + std::to_string(added_) + " edges, announced " +
                           std::to_string(m_));
  }
  if (sorter_) {
    sorter_->finish(path_, n_);
    return;
  }
  flush();
  out_->commit();
}

} // namespace gnnpart::streaming
