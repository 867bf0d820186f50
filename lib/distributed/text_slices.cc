#include "distributed/text_slices.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/errors.h"
#include "io/text_input.h"
#include "io/text_parsing.h"

namespace gnnpart::distributed {

namespace {

using io::detail::count_newlines;

// Rank 0 looks at most this far for the headers (comment block, METIS header line).
constexpr std::size_t kHeadBytes = std::size_t{4} << 20;
constexpr std::size_t kScanBytes = std::size_t{64} << 10;

std::uint64_t count_rows(std::string_view data, std::size_t begin, std::size_t end) {
  std::uint64_t rows = 0;
  io::detail::for_each_line(data, begin, end, [&](const char* p, const char* e) {
    rows += io::detail::is_row(p, e, false) ? 1 : 0;
    return true;
  });
  return rows;
}

class File {
public:
  File(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY)) {
    if (fd_ < 0)
      throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  ~File() { ::close(fd_); }
  std::uint64_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0)
      throw InputError(path_, 0, std::string("cannot stat: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
      throw InputError(path_, 0, "is a directory, not a file");
    return static_cast<std::uint64_t>(st.st_size);
  }
  // Appends bytes [from, to) of the file to out.
  void read(std::uint64_t from, std::uint64_t to, std::string& out) const {
    const std::size_t old = out.size();
    out.resize(old + (to - from));
    std::size_t done = 0;
    while (from + done < to) {
      const ssize_t got = ::pread(fd_, out.data() + old + done, to - from - done,
                                  static_cast<off_t>(from + done));
      if (got < 0)
        throw InputError(path_, 0, std::string("cannot read: ") + std::strerror(errno));
      if (got == 0)
        break;
      done += static_cast<std::size_t>(got);
    }
    out.resize(old + done);
  }

private:
  std::string path_;
  int fd_;
};

// Offset just past the first '\n' at or after `from` (size when none).
std::uint64_t line_end(const File& file, std::uint64_t from, std::uint64_t size) {
  std::string bytes;
  for (std::uint64_t at = from; at < size; at += kScanBytes) {
    bytes.clear();
    file.read(at, std::min<std::uint64_t>(size, at + kScanBytes), bytes);
    const std::size_t nl = bytes.find('\n');
    if (nl != std::string::npos)
      return at + nl + 1;
  }
  return size;
}

// Calls block(offset, bytes) for consecutive pieces of [from, to), each about piece_bytes of
// whole lines (a longer line is one piece) starting at that file offset; `to` is a line end.
template <typename F>
void for_each_line_block(const File& file, std::uint64_t from, std::uint64_t to,
                         std::size_t piece_bytes, F&& block) {
  std::string bytes;
  while (from < to) {
    bytes.clear();
    file.read(from, std::min<std::uint64_t>(to, from + std::max<std::size_t>(1, piece_bytes)),
              bytes);
    std::uint64_t next = from + bytes.size();
    if (next < to) {
      const std::size_t nl = bytes.rfind('\n');
      if (nl != std::string::npos) {
        bytes.resize(nl + 1);
        next = from + nl + 1;
      } else { // a line longer than a piece
        next = line_end(file, next, to);
        file.read(from + bytes.size(), next, bytes);
      }
    }
    if (bytes.empty())
      break; // the file shrank while being read
    block(from, bytes);
    from = next;
  }
}

TextStats plain_pieces(const Comm& comm, const std::string& path, const TextFormat& format,
                       const std::function<void(const TextPiece&)>& consume) {
  // Rank 0 finds where the data starts; every rank learns it with the file size.
  std::uint64_t meta[3] = {0, 0, 0}; // size, data begin, newlines before it
  std::exception_ptr failure;
  try {
    if (comm.rank == 0) {
      File file(path);
      meta[0] = file.size();
      std::string head;
      file.read(0, std::min<std::uint64_t>(meta[0], kHeadBytes), head);
      const std::size_t bom = check_text_head(path, head);
      meta[1] = bom + format.data_begin(std::string_view(head).substr(bom));
      meta[2] = count_newlines(head, 0, meta[1]);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  agree_on_failure(comm, failure, failure_key(failure));
  MPI_Bcast(meta, 3, MPI_UINT64_T, 0, comm.comm);
  const std::uint64_t size = meta[0], data_begin = meta[1];

  // This rank's lines: those starting in [b, e), read in pieces of whole lines twice (the
  // counts of newlines and rows first, for the line numbers and METIS rows of every piece).
  std::uint64_t newlines = 0, rows = 0, first = 0, last = 0;
  bool ends_with_newline = true;
  std::unique_ptr<File> file;
  try {
    file = std::make_unique<File>(path);
    const std::uint64_t span = size - data_begin;
    const auto boundary = [&](int r) {
      return data_begin + static_cast<std::uint64_t>(
                              (static_cast<unsigned __int128>(span) * static_cast<unsigned>(r)) /
                              static_cast<unsigned>(comm.size));
    };
    const std::uint64_t b = boundary(comm.rank), e = boundary(comm.rank + 1);
    // A line belongs to the rank its first byte falls in.
    first = b > data_begin ? line_end(*file, b - 1, size) : b;
    last = first < e ? line_end(*file, e - 1, size) : first;
    const auto count = [&](std::uint64_t, const std::string& bytes) {
      newlines += count_newlines(bytes, 0, bytes.size());
      if (format.count_rows)
        rows += count_rows(bytes, 0, bytes.size());
    };
    for_each_line_block(*file, first, last, format.piece_bytes, count);
    if (comm.rank == comm.size - 1 && size > 0) {
      std::string end_byte;
      file->read(size - 1, size, end_byte);
      ends_with_newline = end_byte == "\n";
    }
  } catch (...) {
    failure = std::current_exception();
  }
  agree_on_failure(comm, failure, failure_key(failure));
  TextPiece piece;
  piece.first_line = 1 + meta[2] + exclusive_prefix_sum(comm, newlines);
  piece.first_row = exclusive_prefix_sum(comm, rows);
  TextStats stats;
  stats.rows = sum_all(comm, rows);
  std::uint64_t open_last = ends_with_newline ? 0 : 1;
  stats.lines = meta[2] + sum_all(comm, newlines) + sum_all(comm, open_last);
  if (size == 0)
    stats.lines = 0;
  try {
    const auto parse = [&](std::uint64_t offset, std::string& bytes) {
      piece.bytes.swap(bytes);
      piece.offset = offset;
      piece.begin = 0;
      piece.end = piece.bytes.size();
      consume(piece);
      piece.first_line += count_newlines(piece.bytes, 0, piece.bytes.size());
      if (format.count_rows)
        piece.first_row += count_rows(piece.bytes, 0, piece.bytes.size());
      piece.bytes.swap(bytes);
    };
    for_each_line_block(*file, first, last, format.piece_bytes, parse);
  } catch (...) {
    failure = std::current_exception();
  }
  agree_on_failure(comm, failure, failure_key(failure));
  return stats;
}

// Rank 0 reads the gzip stream in rounds of whole lines and scatters each round in P pieces.
// A round inflates round_bytes at a time (at least kHeadBytes, so that the first one holds the
// headers) until it ends a line.
class GzipScatter {
public:
  GzipScatter(const std::string& path, std::size_t round_bytes)
      : path_(path), round_bytes_(std::max(round_bytes, kHeadBytes)) {
    file_ = gzopen(path.c_str(), "rb");
    if (!file_)
      throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    gzbuffer(file_, 1 << 20);
  }
  ~GzipScatter() {
    if (file_)
      gzclose(file_);
  }
  // Fills round with the next whole lines (carry first); false at the end of the stream.
  bool next(std::string& round) {
    round.swap(carry_);
    carry_.clear();
    if (eof_)
      return !round.empty();
    while (true) {
      const std::size_t old = round.size();
      round.resize(old + round_bytes_);
      const int got = gzread(file_, round.data() + old, static_cast<unsigned>(round_bytes_));
      if (got < 0) {
        int code = 0;
        const char* message = gzerror(file_, &code);
        throw InputError(path_, 0, std::string("gzip error: ") + message);
      }
      round.resize(old + static_cast<std::size_t>(got));
      if (got == 0) {
        int code = 0;
        gzerror(file_, &code);
        if (!gzeof(file_) || code != Z_OK)
          throw InputError(path_, 0, "truncated gzip stream");
        eof_ = true;
        return !round.empty();
      }
      const std::size_t nl = round.rfind('\n');
      if (nl != std::string::npos && nl >= old) {
        carry_.assign(round, nl + 1, std::string::npos);
        round.resize(nl + 1);
        return true;
      }
    }
  }

private:
  std::string path_;
  std::size_t round_bytes_;
  gzFile file_ = nullptr;
  std::string carry_;
  bool eof_ = false;
};

TextStats gzip_pieces(const Comm& comm, const std::string& path, const TextFormat& format,
                      const std::function<void(const TextPiece&)>& consume) {
  std::exception_ptr failure;
  std::unique_ptr<GzipScatter> reader;
  std::uint64_t line = 1, row = 0;
  bool first = true, ends_with_newline = true;
  std::string round;
  const std::size_t p = static_cast<std::size_t>(comm.size);
  while (true) {
    // Round header from rank 0: 1 = pieces follow, 0 = end (or failure, agreed on below).
    std::uint64_t more = 0;
    std::vector<std::uint64_t> meta(3 * p, 0); // size, first line, first row per rank
    std::vector<int> counts(p, 0), displs(p, 0);
    std::size_t start = 0;
    if (comm.rank == 0 && !failure) {
      try {
        if (!reader)
          reader = std::make_unique<GzipScatter>(path, format.piece_bytes * p);
        if (reader->next(round)) {
          more = 1;
          ends_with_newline = round.back() == '\n';
          if (first) {
            const std::size_t bom = check_text_head(path, round);
            start = bom + format.data_begin(std::string_view(round).substr(bom));
            line += count_newlines(round, 0, start);
            first = false;
          }
          std::size_t at = start;
          for (std::size_t r = 0; r < p; ++r) {
            std::size_t cut = start + (round.size() - start) * (r + 1) / p;
            if (r + 1 < p) {
              cut = std::max(cut, at);
              const std::size_t nl = round.find('\n', cut == 0 ? 0 : cut - 1);
              cut = nl == std::string::npos ? round.size() : nl + 1;
            } else {
              cut = round.size();
            }
            meta[3 * r] = cut - at;
            meta[3 * r + 1] = line;
            meta[3 * r + 2] = row;
            counts[r] = static_cast<int>(cut - at);
            displs[r] = static_cast<int>(at);
            line += count_newlines(round, at, cut);
            if (format.count_rows)
              row += count_rows(round, at, cut);
            at = cut;
          }
        }
      } catch (...) {
        failure = std::current_exception();
        more = 0;
      }
    }
    MPI_Bcast(&more, 1, MPI_UINT64_T, 0, comm.comm);
    if (!more)
      break;
    std::uint64_t mine[3];
    MPI_Scatter(meta.data(), 3, MPI_UINT64_T, mine, 3, MPI_UINT64_T, 0, comm.comm);
    // Rank 0's piece stays in place in the round (no copy of it).
    TextPiece piece;
    if (comm.rank == 0) {
      piece.bytes.swap(round);
      piece.begin = static_cast<std::size_t>(displs[0]);
      MPI_Scatterv(piece.bytes.data(), counts.data(), displs.data(), MPI_CHAR, MPI_IN_PLACE,
                   counts[0], MPI_CHAR, 0, comm.comm);
    } else {
      piece.bytes.resize(mine[0]);
      MPI_Scatterv(nullptr, nullptr, nullptr, MPI_CHAR, piece.bytes.data(),
                   static_cast<int>(mine[0]), MPI_CHAR, 0, comm.comm);
    }
    piece.end = piece.begin + mine[0];
    piece.first_line = mine[1];
    piece.first_row = mine[2];
    consume(piece);
    if (comm.rank == 0)
      round.swap(piece.bytes);
  }
  agree_on_failure(comm, failure, failure_key(failure));
  std::uint64_t stats[2] = {line - 1 + (ends_with_newline ? 0 : 1), row};
  MPI_Bcast(stats, 2, MPI_UINT64_T, 0, comm.comm);
  return TextStats{stats[0], stats[1]};
}

} // namespace

std::string read_text_head(const std::string& path) {
  // zlib reads a file that is not gzip as it is.
  const gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string head(kHeadBytes, '\0');
  const int got = gzread(file, head.data(), static_cast<unsigned>(head.size()));
  std::string message;
  if (got < 0) {
    int code = 0;
    message = std::string("gzip error: ") + gzerror(file, &code);
  }
  gzclose(file);
  if (got < 0)
    throw InputError(path, 0, message);
  head.resize(static_cast<std::size_t>(got));
  return head;
}

void reread_piece(const std::string& path, const PieceMark& mark, TextPiece& piece) {
  const File file(path);
  piece.bytes.clear();
  file.read(mark.offset, mark.offset + mark.size, piece.bytes);
  if (piece.bytes.size() != mark.size)
    throw InputError(path, mark.first_line, "the file changed while it was being read");
  piece.offset = mark.offset;
  piece.begin = 0;
  piece.end = piece.bytes.size();
  piece.first_line = mark.first_line;
  piece.first_row = mark.first_row;
}

std::size_t check_text_head(const std::string& path, std::string_view head) {
  const std::size_t bom = io::bom_length(head);
  if (const io::BinarySniff sniff = io::sniff_binary(head.substr(bom)); sniff.binary)
    throw InputError(path, sniff.line, io::binary_input_message());
  return bom;
}

TextStats for_each_text_piece(const Comm& comm, const std::string& path, bool gzip,
                              const TextFormat& format,
                              const std::function<void(const TextPiece&)>& consume) {
  return gzip ? gzip_pieces(comm, path, format, consume)
              : plain_pieces(comm, path, format, consume);
}

} // namespace gnnpart::distributed
