#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/errors.h"
#include "io/output_target.h"
#include "io/replace_file.h"
#include "io/signal_cleanup.h"

namespace gnnpart::io {

namespace {

constexpr int kCompressionLevel = 6;
constexpr std::size_t kDeflateBufferBytes = std::size_t{1} << 18;
constexpr std::size_t kWriteBufferBytes = std::size_t{1} << 20;

std::string system_message(const std::string& what, const std::string& path) {
  return path + ": " + what + ": " + std::strerror(errno);
}

} // namespace

// An existing regular file is swapped with the temporary one (RENAME_EXCHANGE) and then
// unlinked under the temporary name, rather than renamed over: on
// ext4, a rename over an existing file makes the kernel write the new file's data out at once
// and sleep on it (the auto_da_alloc replace heuristic: 0.4-15 ms per run on the development
// machine, more than a small graph's whole partitioning), which a new file never pays. A
// replaced output is now written back like a new one; neither is fsynced. Without the swap
// (no target yet, not a regular file, a file system without RENAME_EXCHANGE) it is a rename.
void replace_file(const std::string& temp, const std::string& target, const std::string& path) {
#ifdef RENAME_EXCHANGE
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    if (::unlink(temp.c_str()) != 0) // the old file, now under the temporary name
      throw SystemError(system_message("cannot remove the replaced file " + temp, path));
    return;
  }
#endif
  if (::rename(temp.c_str(), target.c_str()) != 0)
    throw SystemError(system_message("cannot rename the temporary file onto", path));
}

struct OutputFile::Deflater {
  z_stream stream{};
  std::vector<char> buffer = std::vector<char>(kDeflateBufferBytes);
  bool initialised = false;
  ~Deflater() {
    if (initialised)
      deflateEnd(&stream);
  }
};

bool has_gz_suffix(std::string_view path) {
  return path.size() >= 3 && path.substr(path.size() - 3) == ".gz";
}

OutputFile::OutputFile(const std::string& path) : OutputFile(path, has_gz_suffix(path)) {}

OutputFile::OutputFile(const std::string& path, bool compress) : path_(path), compress_(compress) {
  const OutputTarget target = resolve_output_target(path);
  if (target.kind == OutputTarget::Kind::kRegular)
    open_temporary(target.path);
  else
    open_direct(target);
  if (compress_) {
    deflater_ = std::make_unique<Deflater>();
    if (deflateInit2(&deflater_->stream, kCompressionLevel, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
      discard();
      throw SystemError(path + ": zlib deflateInit2 failed");
    }
    deflater_->initialised = true;
  }
}

void OutputFile::open_direct(const OutputTarget& target) {
  fd_ = target.kind == OutputTarget::Kind::kDescriptor
            ? ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 0)
            : ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw SystemError(system_message("cannot open output", path_));
}

void OutputFile::open_temporary(const std::string& target) {
  target_path_ = target;
  UniqueFile file = create_unique_file(target + ".tmp.", this);
  if (file.fd < 0) {
    const std::string message = errno == EEXIST
                                    ? path_ + ": cannot create a temporary output file"
                                    : system_message("cannot create output file", path_);
    throw SystemError(message);
  }
  fd_ = file.fd;
  temp_path_ = std::move(file.path);
  cleanup_slot_ = file.cleanup_slot;
}

OutputFile::~OutputFile() {
  if (!committed_)
    discard();
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!temp_path_.empty())
    ::unlink(temp_path_.c_str());
  temp_path_.clear();
  unregister_cleanup_path(cleanup_slot_);
  cleanup_slot_ = -1;
}

void OutputFile::write_raw(const char* bytes, std::size_t size) {
  while (size > 0) {
    const ssize_t wrote = ::write(fd_, bytes, size);
    if (wrote < 0) {
      if (errno == EINTR)
        continue;
      throw SystemError(system_message("write failed", path_));
    }
    bytes += wrote;
    size -= static_cast<std::size_t>(wrote);
  }
}

void OutputFile::deflate_some(const char* bytes, std::size_t size, bool finish) {
  z_stream& s = deflater_->stream;
  do {
    const std::size_t piece = std::min<std::size_t>(size, std::numeric_limits<uInt>::max());
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes));
    s.avail_in = static_cast<uInt>(piece);
    const bool last = finish && piece == size;
    int status = Z_OK;
    do {
      s.next_out = reinterpret_cast<Bytef*>(deflater_->buffer.data());
      s.avail_out = static_cast<uInt>(deflater_->buffer.size());
      status = deflate(&s, last ? Z_FINISH : Z_NO_FLUSH);
      if (status == Z_STREAM_ERROR)
        throw SystemError(path_ + ": zlib deflate failed");
      write_raw(deflater_->buffer.data(), deflater_->buffer.size() - s.avail_out);
    } while (s.avail_out == 0 || (last && status != Z_STREAM_END));
    bytes += piece;
    size -= piece;
  } while (size > 0);
}

void OutputFile::flush() {
  if (buffer_.empty())
    return;
  if (compress_)
    deflate_some(buffer_.data(), buffer_.size(), false);
  else
    write_raw(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void OutputFile::write(std::string_view bytes) {
  if (committed_ || fd_ < 0)
    throw SystemError(path_ + ": write after commit");
  if (buffer_.size() + bytes.size() > kWriteBufferBytes)
    flush();
  if (bytes.size() >= kWriteBufferBytes) {
    if (compress_)
      deflate_some(bytes.data(), bytes.size(), false);
    else
      write_raw(bytes.data(), bytes.size());
    return;
  }
  if (buffer_.capacity() < kWriteBufferBytes)
    buffer_.reserve(kWriteBufferBytes);
  buffer_.append(bytes);
}

void OutputFile::write_at(std::uint64_t offset, const void* bytes, std::size_t size) {
  if (committed_ || fd_ < 0)
    throw SystemError(path_ + ": write after commit");
  if (compress_)
    throw SystemError(path_ + ": cannot overwrite bytes of a compressed file");
  flush();
  const char* data = static_cast<const char*>(bytes);
  while (size > 0) {
    const ssize_t wrote = ::pwrite(fd_, data, size, static_cast<off_t>(offset));
    if (wrote < 0) {
      if (errno == EINTR)
        continue;
      throw SystemError(system_message("write failed", path_));
    }
    data += wrote;
    offset += static_cast<std::uint64_t>(wrote);
    size -= static_cast<std::size_t>(wrote);
  }
}

void OutputFile::commit() {
  if (committed_ || fd_ < 0)
    throw SystemError(path_ + ": commit twice");
  flush();
  if (compress_)
    deflate_some(nullptr, 0, true);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)
    throw SystemError(system_message("close failed", path_));
  if (temp_path_.empty()) { // written directly (a FIFO, a device, standard output)
    committed_ = true;
    return;
  }
  replace_file(temp_path_, target_path_, path_);
  committed_ = true;
  unregister_cleanup_path(cleanup_slot_);
  cleanup_slot_ = -1;
}

void write_parallel_blocks(
    OutputFile& out, std::uint64_t count, std::uint64_t grain,
    const std::function<void(std::uint64_t, std::uint64_t, std::string&)>& format) {
  if (grain == 0)
    grain = 1;
  const std::uint64_t blocks = (count + grain - 1) / grain;
  const std::uint64_t batch =
      4 * static_cast<std::uint64_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  std::vector<std::string> texts(static_cast<std::size_t>(std::min(blocks, batch)));
  for (std::uint64_t first = 0; first < blocks; first += batch) {
    const std::uint64_t last = std::min(blocks, first + batch);
    tbb::parallel_for(first, last, [&](std::uint64_t b) {
      std::string& text = texts[b - first];
      text.clear();
      format(b * grain, std::min(count, (b + 1) * grain), text);
    });
    for (std::uint64_t b = first; b < last; ++b)
      out.write(texts[b - first]);
  }
}

} // namespace gnnpart::io
