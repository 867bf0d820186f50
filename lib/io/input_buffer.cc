#include "io/input_buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>

#include "core/errors.h"
#include "io/text_input.h"

namespace gnnpart::io {

namespace {

// Closes a descriptor on every exit path.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

// A growable byte buffer without zero-initialisation (inflated data can be gigabytes).
struct ByteBuffer {
  std::unique_ptr<char[]> bytes;
  std::size_t size = 0;
  std::size_t capacity = 0;

  void reserve(std::size_t wanted) {
    if (wanted <= capacity)
      return;
    auto grown = std::make_unique_for_overwrite<char[]>(wanted);
    if (size > 0)
      std::memcpy(grown.get(), bytes.get(), size);
    bytes = std::move(grown);
    capacity = wanted;
  }
};

// Called once the first kSniffBytes (+ a byte-order mark) are in, or at the end if fewer: lets
// a text reader refuse binary input before the rest is read.
class PrefixCheck {
public:
  explicit PrefixCheck(std::function<void(std::string_view)> check) : check_(std::move(check)) {}
  void offer(const ByteBuffer& out, bool at_end) {
    if (!check_ || (!at_end && out.size < kSniffBytes + kUtf8Bom.size()))
      return;
    auto check = std::move(check_);
    check_ = nullptr;
    check(std::string_view(out.bytes.get(), out.size));
  }

private:
  std::function<void(std::string_view)> check_;
};

void read_all(int fd, const std::string& path, ByteBuffer& out, PrefixCheck& prefix) {
  out.reserve(1 << 16);
  for (;;) {
    prefix.offer(out, false);
    if (out.size == out.capacity)
      out.reserve(out.capacity * 2);
    const ssize_t got = ::read(fd, out.bytes.get() + out.size, out.capacity - out.size);
    if (got == 0) {
      prefix.offer(out, true);
      return;
    }
    if (got < 0) {
      if (errno == EINTR)
        continue;
      throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
    }
    out.size += static_cast<std::size_t>(got);
  }
}

// Inflates every gzip member of `in` (concatenated members are one stream, as gzip -d does).
void inflate_all(std::string_view in, const std::string& path, ByteBuffer& out,
                 PrefixCheck& prefix) {
  // The trailer holds the last member's size mod 2^32: a good first guess for one member, but
  // only up to what deflate can expand the input to (1032:1) — a damaged trailer must not
  // reserve gigabytes for a few bytes of input.
  std::size_t guess = in.size() * 4;
  if (in.size() >= 18) {
    std::uint32_t isize = 0;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    guess = std::max<std::size_t>(guess, std::min<std::size_t>(isize, in.size() * 1032));
  }
  out.reserve(std::max<std::size_t>(guess + 1, 1 << 16));

  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK)
    throw SystemError("zlib: inflateInit2 failed");
  struct Ender {
    z_stream* s;
    ~Ender() { inflateEnd(s); }
  } ender{&stream};

  std::size_t consumed = 0;
  for (;;) {
    const std::size_t in_chunk =
        std::min<std::size_t>(in.size() - consumed, std::numeric_limits<uInt>::max());
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
    stream.avail_in = static_cast<uInt>(in_chunk);
    if (out.size == out.capacity)
      out.reserve(out.capacity * 2);
    const std::size_t out_room =
        std::min<std::size_t>(out.capacity - out.size, std::numeric_limits<uInt>::max());
    stream.next_out = reinterpret_cast<Bytef*>(out.bytes.get() + out.size);
    stream.avail_out = static_cast<uInt>(out_room);
    const int status = inflate(&stream, Z_NO_FLUSH);
    consumed += in_chunk - stream.avail_in;
    out.size += out_room - stream.avail_out;
    prefix.offer(out, false);
    if (status == Z_STREAM_END) {
      // Another member follows? Anything else after the stream is ignored, as gzip does.
      if (in.size() - consumed >= 2 && is_gzip(in.substr(consumed))) {
        inflateReset(&stream);
        continue;
      }
      prefix.offer(out, true);
      return;
    }
    if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
      throw InputError(path, 0, corrupt_gzip_message(stream.msg));
    }
    if (status == Z_MEM_ERROR)
      throw SystemError(path + ": out of memory while inflating");
    if (status == Z_BUF_ERROR || status == Z_OK) {
      if (consumed == in.size() && stream.avail_out != 0)
        throw InputError(path, 0, truncated_gzip_message());
      continue;
    }
    throw InputError(path, 0, "gzip error " + std::to_string(status));
  }
}

} // namespace

std::string truncated_gzip_message() {
  return "truncated gzip stream";
}

std::string corrupt_gzip_message(const char* zlib_message) {
  return std::string("corrupt gzip stream (") +
         (zlib_message != nullptr ? zlib_message : "invalid data") + ")";
}

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

InputBuffer::InputBuffer(const std::string& path, InputKind kind) : path_(path) {
  PrefixCheck prefix(kind == InputKind::kRaw
                         ? std::function<void(std::string_view)>{}
                         : [&](std::string_view bytes) {
                             bytes.remove_prefix(bom_length(bytes));
                             if (const BinarySniff s = sniff_binary(bytes); s.binary)
                               throw InputError(path, s.line, binary_input_message());
                           });
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw InputError(path, 0, std::string("cannot stat: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    throw InputError(path, 0, "is a directory, not a file");

  std::string_view raw;
  ByteBuffer read_bytes;
  if (S_ISREG(st.st_mode)) {
    file_size_ = static_cast<std::size_t>(st.st_size);
    if (file_size_ > 0) {
      // The first bytes alone decide whether this is binary input, before the file is mapped.
      ByteBuffer head;
      head.reserve(kSniffBytes + kUtf8Bom.size());
      const ssize_t got = ::pread(fd.get(), head.bytes.get(), head.capacity, 0);
      head.size = got > 0 ? static_cast<std::size_t>(got) : 0;
      if (!is_gzip(std::string_view(head.bytes.get(), head.size)))
        prefix.offer(head, true);
      if (head.size == file_size_) {
        // The whole file came with the first read (up to kSniffBytes): no mapping, which on a
        // file that small costs more than the read (mmap, its page tables, munmap).
        read_bytes = std::move(head);
        raw = std::string_view(read_bytes.bytes.get(), read_bytes.size);
      } else {
        // MAP_POPULATE maps every page up front (the whole file is parsed anyway), which is
        // much cheaper than one page fault per 4 KiB later.
        void* map = ::mmap(nullptr, file_size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
        if (map == MAP_FAILED)
          throw InputError(path, 0, std::string("cannot map: ") + std::strerror(errno));
        map_ = map;
        map_size_ = file_size_;
        raw = std::string_view(static_cast<const char*>(map_), map_size_);
      }
    }
  } else { // pipes, character devices: read everything
    read_all(fd.get(), path, read_bytes, prefix);
    file_size_ = read_bytes.size;
    raw = std::string_view(read_bytes.bytes.get(), read_bytes.size);
  }

  if (is_gzip(raw)) {
    compressed_ = true;
    ByteBuffer inflated;
    try {
      inflate_all(raw, path, inflated, prefix);
    } catch (...) {
      release();
      throw;
    }
    release();
    owned_ = std::move(inflated.bytes);
    data_ = std::string_view(owned_.get(), inflated.size);
  } else if (map_ != nullptr) {
    data_ = raw;
  } else {
    owned_ = std::move(read_bytes.bytes);
    data_ = std::string_view(owned_.get(), file_size_);
  }
  if (kind == InputKind::kText)
    data_.remove_prefix(bom_length(data_));
}

InputBuffer::~InputBuffer() {
  release();
}

InputBuffer::InputBuffer(InputBuffer&& other) noexcept
    : path_(std::move(other.path_)), map_(std::exchange(other.map_, nullptr)),
      map_size_(std::exchange(other.map_size_, 0)), owned_(std::move(other.owned_)),
      data_(std::exchange(other.data_, {})), file_size_(other.file_size_),
      compressed_(other.compressed_) {}

InputBuffer& InputBuffer::operator=(InputBuffer&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    map_ = std::exchange(other.map_, nullptr);
    map_size_ = std::exchange(other.map_size_, 0);
    owned_ = std::move(other.owned_);
    data_ = std::exchange(other.data_, {});
    file_size_ = other.file_size_;
    compressed_ = other.compressed_;
  }
  return *this;
}

void InputBuffer::drop_pages(std::size_t begin, std::size_t end) const {
  if (map_ == nullptr || begin >= end)
    return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(data_.data() + begin);
  const auto last = reinterpret_cast<std::uintptr_t>(data_.data() + std::min(end, data_.size()));
  const std::uintptr_t from = (first + page - 1) / page * page, to = last / page * page;
  // Advice only: a failure leaves the pages resident, which is what happened before.
  if (from < to)
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

void InputBuffer::release() noexcept {
  if (map_ != nullptr)
    ::munmap(map_, map_size_);
  map_ = nullptr;
  map_size_ = 0;
}

} // namespace gnnpart::io
