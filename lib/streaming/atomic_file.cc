#include "streaming/atomic_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/errors.h"

namespace gnnpart::streaming {
namespace {

constexpr std::size_t kFlushBytes = 4 << 20;

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw SystemError(path + ": " + what + ": " + std::strerror(errno));
}

void write_all(int fd, const char* bytes, std::size_t size, const std::string& path) {
  while (size > 0) {
    const ssize_t done = ::write(fd, bytes, size);
    if (done < 0) {
      if (errno == EINTR)
        continue;
      fail("write failed", path);
    }
    bytes += done;
    size -= static_cast<std::size_t>(done);
  }
}

} // namespace

std::string resolve_temp_dir(const std::string& dir) {
  if (!dir.empty())
    return dir;
  const char* env = std::getenv("TMPDIR");
  if (env != nullptr && *env != '\0')
    return env;
  return "/tmp";
}

AtomicFile::AtomicFile(std::string path, bool compress) : path_(std::move(path)) {
  std::string pattern = path_ + ".tmp.XXXXXX";
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0)
    fail("cannot create output file", path_);
  temp_path_ = pattern;
  ::fchmod(
      fd_, 0644 & ~[] {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return mask;
      }());
  if (compress) {
    const int gz_fd = ::dup(fd_);
    gz_ = gz_fd >= 0 ? gzdopen(gz_fd, "wb6") : nullptr;
    if (gz_ == nullptr) {
      discard();
      throw SystemError(path_ + ": cannot start gzip stream");
    }
    gzbuffer(static_cast<gzFile>(gz_), 1 << 20);
  }
  buffer_.reserve(kFlushBytes);
}

AtomicFile::~AtomicFile() {
  if (!committed_)
    discard();
}

void AtomicFile::write(const void* bytes, std::size_t size) {
  const char* data = static_cast<const char*>(bytes);
  if (buffer_.size() + size > kFlushBytes)
    flush();
  if (size >= kFlushBytes) {
    if (gz_ != nullptr) {
      if (gzwrite(static_cast<gzFile>(gz_), data, static_cast<unsigned>(size)) !=
          static_cast<int>(size)) {
        fail("gzip write failed", path_);
      }
    } else {
      write_all(fd_, data, size, path_);
    }
    return;
  }
  buffer_.append(data, size);
}

void AtomicFile::write_at(std::uint64_t offset, const void* bytes, std::size_t size) {
  if (gz_ != nullptr)
    throw SystemError(path_ + ": cannot rewrite a compressed file");
  flush();
  if (::pwrite(fd_, bytes, size, static_cast<off_t>(offset)) != static_cast<ssize_t>(size)) {
    fail("write failed", path_);
  }
}

void AtomicFile::flush() {
  if (buffer_.empty())
    return;
  if (gz_ != nullptr) {
    if (gzwrite(static_cast<gzFile>(gz_), buffer_.data(), static_cast<unsigned>(buffer_.size())) !=
        static_cast<int>(buffer_.size())) {
      fail("gzip write failed", path_);
    }
  } else {
    write_all(fd_, buffer_.data(), buffer_.size(), path_);
  }
  buffer_.clear();
}

void AtomicFile::commit() {
  flush();
  if (gz_ != nullptr) {
    const int status = gzclose(static_cast<gzFile>(gz_));
    gz_ = nullptr;
    if (status != Z_OK)
      fail("gzip close failed", path_);
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail("close failed", path_);
  }
  fd_ = -1;
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    fail("rename failed", path_);
  committed_ = true;
}

void AtomicFile::discard() noexcept {
  if (gz_ != nullptr)
    gzclose(static_cast<gzFile>(gz_));
  gz_ = nullptr;
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!temp_path_.empty())
    ::unlink(temp_path_.c_str());
}

TempFile::TempFile(const std::string& dir, const std::string& tag) {
  std::string pattern = resolve_temp_dir(dir) + "/gnnpart-" + tag + "-XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    fail("cannot create temporary file", pattern);
  ::close(fd);
  path_ = pattern;
}

TempFile::~TempFile() {
  if (!path_.empty())
    ::unlink(path_.c_str());
}

TempFile::TempFile(TempFile&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

} // namespace gnnpart::streaming
