#include "streaming/file_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "core/errors.h"

namespace gnnpart::streaming {

bool file_is_gzip(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return false;
  unsigned char magic[2] = {0, 0};
  const ssize_t got = ::read(fd, magic, 2);
  ::close(fd);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

FileSource::FileSource(std::string path) : path_(std::move(path)) {
  open();
}

FileSource::~FileSource() {
  close();
}

void FileSource::open() {
  fd_ = ::open(path_.c_str(), O_RDONLY);
  if (fd_ < 0)
    throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0)
    file_size_ = static_cast<std::uint64_t>(st.st_size);
  if (S_ISDIR(st.st_mode)) {
    close();
    throw InputError(path_, 0, "is a directory");
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t got = ::pread(fd_, magic, 2, 0);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    const int gz_fd = ::dup(fd_);
    gzFile gz = gz_fd >= 0 ? gzdopen(gz_fd, "rb") : nullptr;
    if (gz == nullptr) {
      if (gz_fd >= 0)
        ::close(gz_fd);
      close();
      throw InputError(path_, 0, "cannot open gzip stream");
    }
    gzbuffer(gz, 1 << 20);
    gz_ = gz;
  }
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  plain_offset_ = 0;
}

void FileSource::close() noexcept {
  if (gz_ != nullptr)
    gzclose(static_cast<gzFile>(gz_));
  gz_ = nullptr;
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
}

std::size_t FileSource::read(char* out, std::size_t size) {
  if (gz_ != nullptr) {
    std::size_t total = 0;
    while (total < size) {
      const unsigned want = static_cast<unsigned>(std::min<std::size_t>(size - total, 1u << 30));
      const int got = gzread(static_cast<gzFile>(gz_), out + total, want);
      if (got < 0) {
        int code = 0;
        const char* message = gzerror(static_cast<gzFile>(gz_), &code);
        throw InputError(path_, 0, std::string("corrupt gzip stream: ") + message);
      }
      if (got == 0) {
        if (!gzeof(static_cast<gzFile>(gz_))) {
          throw InputError(path_, 0, "corrupt gzip stream");
        }
        break;
      }
      total += static_cast<std::size_t>(got);
    }
    return total;
  }
  std::size_t total = 0;
  while (total < size) {
    const ssize_t got = ::read(fd_, out + total, size - total);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      throw InputError(path_, 0, std::string("read failed: ") + std::strerror(errno));
    }
    if (got == 0)
      break;
    total += static_cast<std::size_t>(got);
  }
  plain_offset_ += total;
  return total;
}

void FileSource::read_exact(char* out, std::size_t size, const char* what) {
  if (read(out, size) != size)
    throw InputError(path_, 0, std::string("truncated: ") + what);
}

void FileSource::rewind() {
  if (gz_ != nullptr) {
    if (gzrewind(static_cast<gzFile>(gz_)) != 0) {
      close();
      open();
    }
    return;
  }
  seek(0);
}

void FileSource::seek(std::uint64_t offset) {
  if (gz_ != nullptr)
    throw InputError(path_, 0, "cannot seek in a gzip stream");
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
    throw InputError(path_, 0, std::string("seek failed: ") + std::strerror(errno));
  }
  plain_offset_ = offset;
}

std::uint64_t FileSource::bytes_consumed() const {
  if (gz_ != nullptr) {
    const auto offset = gzoffset(static_cast<gzFile>(gz_));
    return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
  }
  return plain_offset_;
}

LineReader::LineReader(FileSource& source, std::size_t chunk_bytes) : source_(source) {
  buffer_.resize(chunk_bytes);
}

bool LineReader::refill() {
  if (eof_)
    return false;
  // Keep the unfinished tail, grow when a single line fills the whole buffer.
  const std::size_t tail = end_ - begin_;
  if (begin_ > 0 && tail > 0)
    std::memmove(buffer_.data(), buffer_.data() + begin_, tail);
  begin_ = 0;
  end_ = tail;
  if (end_ == buffer_.size())
    buffer_.resize(buffer_.size() * 2);
  const std::size_t got = source_.read(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0)
    eof_ = true;
  end_ += got;
  return got > 0;
}

bool LineReader::next_slow(std::string_view& line) {
  for (;;) {
    if (refill()) {
      if (next_in_buffer(line))
        return true;
      continue;
    }
    if (begin_ == end_)
      return false;
    std::size_t length = end_ - begin_;
    const char* last = buffer_.data() + begin_;
    begin_ = end_;
    if (length > 0 && last[length - 1] == '\r')
      --length;
    line = std::string_view(last, length);
    ++line_number_;
    return true;
  }
}

void LineReader::rewind() {
  source_.rewind();
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
}

} // namespace gnnpart::streaming
