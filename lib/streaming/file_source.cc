#include "streaming/file_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "io/input_buffer.h"

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

struct FileSource::Gzip {
  z_stream z{};
  std::vector<unsigned char> in = std::vector<unsigned char>(1 << 20);
  std::uint64_t raw_read = 0; // compressed bytes read from the file
  bool raw_eof = false;
  bool finished = false; // the last member ended
};

FileSource::FileSource(std::string path) : path_(std::move(path)) {
  open();
}

FileSource::~FileSource() {
  close();
}

void FileSource::open() {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0)
    file_size_ = static_cast<std::uint64_t>(st.st_size);
  if (S_ISDIR(st.st_mode)) {
    close();
    throw InputError(path_, 0, "is a directory, not a file");
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t got = ::pread(fd_, magic, 2, 0);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    gz_ = new Gzip;
    if (inflateInit2(&gz_->z, 15 + 16) != Z_OK) {
      close();
      throw SystemError("zlib: inflateInit2 failed");
    }
  }
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  plain_offset_ = 0;
}

void FileSource::close() noexcept {
  if (gz_ != nullptr) {
    inflateEnd(&gz_->z);
    delete gz_;
  }
  gz_ = nullptr;
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
}

std::size_t FileSource::read_plain(char* out, std::size_t size) {
  std::size_t total = 0;
  while (total < size) {
    const ssize_t got = ::read(fd_, out + total, size - total);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      throw InputError(path_, 0, std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0)
      break;
    total += static_cast<std::size_t>(got);
  }
  return total;
}

bool FileSource::fill_compressed() {
  Gzip& g = *gz_;
  if (g.raw_eof)
    return false;
  const std::size_t kept = g.z.avail_in;
  if (kept > 0 && g.z.next_in != g.in.data())
    std::memmove(g.in.data(), g.z.next_in, kept);
  const std::size_t got =
      read_plain(reinterpret_cast<char*>(g.in.data()) + kept, g.in.size() - kept);
  g.raw_read += got;
  g.raw_eof = got == 0;
  g.z.next_in = g.in.data();
  g.z.avail_in = static_cast<uInt>(kept + got);
  return got > 0;
}

std::size_t FileSource::inflate_into(char* out, std::size_t size) {
  Gzip& g = *gz_;
  std::size_t total = 0;
  while (total < size && !g.finished) {
    if (g.z.avail_in == 0)
      fill_compressed();
    const std::size_t room = std::min<std::size_t>(size - total, 1u << 30);
    g.z.next_out = reinterpret_cast<Bytef*>(out + total);
    g.z.avail_out = static_cast<uInt>(room);
    const int status = inflate(&g.z, Z_NO_FLUSH);
    total += room - g.z.avail_out;
    if (status == Z_STREAM_END) {
      // Another member follows? Anything else after the stream is ignored, as gzip does.
      if (g.z.avail_in < 2)
        fill_compressed();
      if (g.z.avail_in >= 2 && g.z.next_in[0] == 0x1f && g.z.next_in[1] == 0x8b)
        inflateReset(&g.z);
      else
        g.finished = true;
      continue;
    }
    if (status == Z_DATA_ERROR || status == Z_NEED_DICT)
      throw InputError(path_, 0, io::corrupt_gzip_message(g.z.msg));
    if (status == Z_MEM_ERROR)
      throw SystemError(path_ + ": out of memory while inflating");
    if (status != Z_OK && status != Z_BUF_ERROR)
      throw InputError(path_, 0, "gzip error " + std::to_string(status));
    if (g.z.avail_in == 0 && g.z.avail_out != 0 && !fill_compressed())
      throw InputError(path_, 0, io::truncated_gzip_message());
  }
  return total;
}

std::size_t FileSource::read(char* out, std::size_t size) {
  if (gz_ != nullptr)
    return inflate_into(out, size);
  const std::size_t total = read_plain(out, size);
  plain_offset_ += total;
  return total;
}

void FileSource::read_exact(char* out, std::size_t size, const char* what) {
  if (read(out, size) != size)
    throw InputError(path_, 0, std::string("truncated: ") + what);
}

void FileSource::rewind() {
  if (gz_ != nullptr) {
    if (::lseek(fd_, 0, SEEK_SET) < 0)
      throw InputError(path_, 0, std::string("cannot seek: ") + std::strerror(errno));
    inflateReset(&gz_->z);
    gz_->z.avail_in = 0;
    gz_->raw_read = 0;
    gz_->raw_eof = false;
    gz_->finished = false;
    return;
  }
  seek(0);
}

void FileSource::seek(std::uint64_t offset) {
  if (gz_ != nullptr)
    throw InputError(path_, 0, "cannot seek in a gzip stream");
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
    throw InputError(path_, 0, std::string("cannot seek: ") + std::strerror(errno));
  }
  plain_offset_ = offset;
}

std::uint64_t FileSource::bytes_consumed() const {
  if (gz_ != nullptr)
    return gz_->raw_read - gz_->z.avail_in;
  return plain_offset_;
}

LineReader::LineReader(FileSource& source, std::size_t chunk_bytes, std::size_t max_line_bytes)
    : source_(source), max_line_bytes_(max_line_bytes) {
  buffer_.resize(std::max(chunk_bytes, io::kSniffBytes + io::kUtf8Bom.size()));
}

void LineReader::throw_long_line() const {
  throw InputError(source_.path(), line_number_ + 1, io::long_line_message(max_line_bytes_));
}

void LineReader::check_start() {
  started_ = true;
  const std::string_view head(buffer_.data(), end_);
  begin_ = io::bom_length(head);
  if (const io::BinarySniff s = io::sniff_binary(head.substr(begin_)); s.binary)
    throw InputError(source_.path(), s.line, io::binary_input_message());
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
  if (tail > max_line_bytes_)
    throw_long_line();
  if (end_ == buffer_.size())
    buffer_.resize(std::min(buffer_.size() * 2, max_line_bytes_ + 2));
  std::size_t got = 0;
  if (!started_) { // the first fill holds the whole sniffed prefix
    while (end_ < buffer_.size()) {
      const std::size_t more = source_.read(buffer_.data() + end_, buffer_.size() - end_);
      if (more == 0)
        break;
      end_ += more;
      got += more;
    }
    check_start();
  } else {
    got = source_.read(buffer_.data() + end_, buffer_.size() - end_);
    end_ += got;
  }
  if (got == 0)
    eof_ = true;
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
    if (length > max_line_bytes_)
      throw_long_line();
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
  started_ = false;
  line_number_ = 0;
}

} // namespace gnnpart::streaming
