#pragma once
// The text of an input as pieces of whole lines held by the ranks: a byte range of a plain
// file per rank, or the chunks of a gzip stream that rank 0 inflates and scatters.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "distributed/comm.h"

namespace gnnpart::distributed {

// Whole lines bytes[begin, end); line first_line is the line of bytes[begin] in the file.
struct TextPiece {
  std::string bytes;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint64_t first_line = 1;
  std::uint64_t first_row = 0; // METIS: vertex of the piece's first row
  std::uint64_t offset = 0;    // plain files: file offset of bytes[0] (gzip: 0)
};

// Where a piece of a plain file lies: enough to read it again (reread_piece) while the edges
// are routed, instead of holding what was parsed from it.
struct PieceMark {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t first_line = 1;
  std::uint64_t first_row = 0;
};
inline PieceMark mark_of(const TextPiece& piece) {
  return {piece.offset + piece.begin, piece.end - piece.begin, piece.first_line, piece.first_row};
}
// Reads the piece at mark from the plain file again (begin 0, end its size); throws InputError
// when the file cannot be read or has shrunk.
void reread_piece(const std::string& path, const PieceMark& mark, TextPiece& piece);

// What the reader tells the slicer about a format: where the data starts in the file's first
// bytes (past headers) and whether pieces need their first METIS row.
struct TextFormat {
  std::function<std::size_t(std::string_view head)> data_begin; // run on rank 0 only
  bool count_rows = false;
  // Plain files: pieces of whole lines; gzip: rounds of P pieces (at least 4 MiB).
  std::size_t piece_bytes = std::size_t{16} << 20;
};

// The text-input rules of lib/io (io/text_input.h) on the file's first bytes: throws the
// InputError of `gnnpart partition` when they hold a NUL byte; returns the length of a
// leading UTF-8 byte-order mark to skip (0 if none). TextFormat::data_begin sees the bytes
// after it.
std::size_t check_text_head(const std::string& path, std::string_view head);

struct TextStats {
  std::uint64_t lines = 0; // lines in the file (a last line without '\n' counts)
  std::uint64_t rows = 0;  // METIS rows after the header
};

// The file's first bytes (at most 4 MiB, inflated when it is gzip), as rank 0 reads them for
// the headers. Throws InputError when it cannot be read.
std::string read_text_head(const std::string& path);

// Calls consume(piece) on every rank for each piece it receives (once for a plain file, once
// per chunk round for gzip; rounds are collective). Errors of consume are kept by the caller.
// Throws InputError when the file cannot be read (on every rank, or rank 0 for gzip).
TextStats for_each_text_piece(const Comm& comm, const std::string& path, bool gzip,
                              const TextFormat& format,
                              const std::function<void(const TextPiece&)>& consume);

} // namespace gnnpart::distributed
